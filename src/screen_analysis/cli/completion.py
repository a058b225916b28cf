"""`screen-analysis completion bash|zsh|fish`: the script a shell sources to complete the
command line — commands, options, and option values (`cli.param_types`).

The script is click's: at each Tab the shell runs `screen-analysis` with
`_SCREEN_ANALYSIS_COMPLETE` set, and click answers from the command tree without running
any command. One change for bash: a completion that ends in `=` (`--min color_contrast=`)
is left without a space after it, so the threshold is typed straight on.
"""

from __future__ import annotations

import click
from click.shell_completion import BashComplete, add_completion_class, get_completion_class

from screen_analysis.cli.root import CliContext

PROG_NAME = "screen-analysis"
COMPLETE_VAR = "_SCREEN_ANALYSIS_COMPLETE"
SHELLS = ("bash", "zsh", "fish")


class Bash(BashComplete):
    """click's bash completion, without the space after a word ending in `=`."""

    source_template = BashComplete.source_template.replace(
        "            COMPREPLY+=($value)\n",
        "            COMPREPLY+=($value)\n            [[ $value == *= ]] && compopt -o nospace\n",
    )


add_completion_class(Bash, "bash")


@click.command()
@click.argument("shell", type=click.Choice(SHELLS))
@click.pass_context
def completion(click_ctx: click.Context, shell: str) -> None:
    """Print the completion script for SHELL (bash, zsh or fish).

    Add one line to the shell's start file:

    \b
        ~/.bashrc                   eval "$(screen-analysis completion bash)"
        ~/.zshrc (after compinit)   eval "$(screen-analysis completion zsh)"
        ~/.config/fish/config.fish  screen-analysis completion fish | source
    """
    root = click_ctx.find_root().command
    complete = get_completion_class(shell)
    assert complete is not None  # every name in SHELLS has a class
    script = complete(root, {}, PROG_NAME, COMPLETE_VAR).source()
    ctx: CliContext = click_ctx.obj
    ctx.run(lambda: click.echo(script))
