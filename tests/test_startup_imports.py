"""The start-up path imports only what the first screen needs: a later change that pulls a
heavy module into it (the reference server, keyring backends, images, charts) fails here,
so the cold start cannot silently get slower again. pydantic is not on the path either: the
rows the local cache kept are read without it (`api.plain_resources`), and the first page
from the server is validated by it once the client is built; `tests/tui/test_first_frame.py`
pins that the kept rows are on screen before it is imported. A typical config file keeps it
off as well: it is read without pydantic (`config_plain`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from benchmarks import warm_start_trees

# Loaded later, when something asks for them (or never, by the app's first screen).
NOT_AT_START = (
    "keyring",
    "PIL",
    "jinja2",
    "tomlkit",
    "starlette",
    "uvicorn",
    "textual_image",
    "textual_serve",
    "schemathesis",
    "screen_analysis.demo",
    "screen_analysis.insight",
    "screen_analysis.report",
    "screen_analysis.cli.analyses",
    "screen_analysis.cli.auth_commands",
    "screen_analysis.cli.serve",
    # The API client: built when the view is first asked of the server, after the rows the
    # local cache kept are drawn (`CurrentClient.open`).
    "screen_analysis.api.client",
    # httpx and what it brings (pygments, idna): the first frame reads the addresses it
    # shows without it (`api.plain_address`); the client imports it when it is built.
    "httpx",
    "httpcore",
    "pygments",
    "idna",
    "screen_analysis.api.addresses",
    "screen_analysis.api.image_fetch",
    # pydantic and what is declared with it: the resources import without it
    # (`api.fields`' markers give it their schemas when it validates), the cache's rows are
    # read without it, the scope's and the saved views' models, `[commands]` and `notify`
    # are imported when the config has something for them to check; the client's readers
    # of answers and arguments (which ask pydantic only for what is not plainly good) come
    # with the client.
    "pydantic",
    "pydantic_core",
    "annotated_types",
    "screen_analysis.api.parsing",
    "screen_analysis.api.arguments",
    "screen_analysis.api.arguments.declared",
    "screen_analysis.browse.scope_model",
    "screen_analysis.user_commands.spec",
    # The config file's declaration: a file of known keys and values of their kinds is
    # read without it (`config_plain`).
    "screen_analysis.config_file",
    # Standard modules only a rare answer needs: an HTTP date in Retry-After, an HTML error
    # page (`email` is 13 modules).
    "email",
    "html",
    # Screens and dialogs the first screen does not show.
    "screen_analysis.tui.dialogs.frame",
    "screen_analysis.tui.dialogs.choice",
    "screen_analysis.tui.dialogs.prompt",
    "screen_analysis.tui.dialogs.progress",
    "textual.widgets._progress_bar",
    "screen_analysis.tui.screens.login",
    "screen_analysis.tui.screens.welcome",
    "screen_analysis.tui.screens.help",
    "screen_analysis.tui.screens.overview",
    "screen_analysis.tui.screens.compare",
    "screen_analysis.tui.widgets.sign_in_form",
    "screen_analysis.tui.theme_provider",
    "screen_analysis.tui.dialogs.error",
)

START = """
import json, sys
from pathlib import Path
from screen_analysis.cli.root import cli, make_client
from screen_analysis.cli.launch import launch_app
from screen_analysis.config import Connection, load_settings
from screen_analysis.secret import SecretStr
from screen_analysis.state import RememberedProjects
from screen_analysis.tui.app import ScreenAnalysisApp
from screen_analysis.images.disk import DiskCache
from screen_analysis.tui.graphics import Graphics
from screen_analysis.tui.themes import load_themes
state = Path(sys.argv[1]) / "state.json"
settings = load_settings(config_path=Path(sys.argv[1]) / "config.toml", environ={})
ScreenAnalysisApp(
    settings.with_overrides(state_path=state),
    Connection("https://api.example.com", SecretStr("sk-test-not-a-real-key")),
    RememberedProjects(state),
    themes=load_themes(None),
    make_client=make_client,
    graphics=Graphics("halfcell"),  # images on, as in a colour terminal
    image_cache=DiskCache(Path(sys.argv[1]) / "images"),
)
print(json.dumps(sorted(sys.modules)))
"""


# Most signed-in users have a config file: a typical one keeps pydantic off the path too.
TYPICAL_CONFIG = (
    'base_url = "https://api.example.com"\nprojects = ["proj_1"]\n'
    + warm_start_trees.TYPICAL_CONFIG  # its last table is the profile: more keys of it
    + 'base_url = "https://work.example.com"\ncache_max_mb = 100\n'
)


@pytest.mark.parametrize("config", [None, TYPICAL_CONFIG], ids=["no config", "a config file"])
def test_the_start_path_leaves_heavy_modules_for_later(tmp_path: Path, config: str | None) -> None:
    if config is not None:
        (tmp_path / "config.toml").write_text(config, encoding="utf-8")
    output = subprocess.run(
        [sys.executable, "-c", START, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    loaded = json.loads(output)
    assert "textual.app" in loaded and "screen_analysis.tui.widgets.screen_image" in loaded, (
        "the probe did start the app's path"
    )
    early = [
        name for name in loaded if any(name == m or name.startswith(m + ".") for m in NOT_AT_START)
    ]
    assert early == []


ENTRY = """
import atexit, sys, threading
started = []
start = threading.Thread.start
def noted(thread):
    started.append(thread.name)
    start(thread)
threading.Thread.start = noted
atexit.register(lambda: print(started))
sys.argv = ["screen-analysis", *sys.argv[1:]]
from screen_analysis.cli.root import main
main()
"""


def test_the_entry_point_starts_no_thread() -> None:
    # A thread still running when the interpreter ends races its clean-up (a TLS context
    # built in one once crashed a quarter of `--help` runs): the quick exits start none.
    for args in (["--help"], ["--version"], ["--no-such-flag"]):
        done = subprocess.run(
            [sys.executable, "-c", ENTRY, *args], capture_output=True, text=True, timeout=60
        )
        assert done.returncode in (0, 2), done.stderr
        assert done.stdout.splitlines()[-1] == "[]", (args, done.stdout[-300:])


def test_the_quick_exits_leave_the_resources_unloaded() -> None:
    # The api package imports its names on first use: wording an error (all that `--version`
    # may need) loads neither the resources nor pydantic.
    probe = ENTRY.replace("print(started)", "print(sorted(sys.modules))")
    done = subprocess.run(
        [sys.executable, "-c", probe, "--version"], capture_output=True, text=True, timeout=60
    )
    loaded = done.stdout.splitlines()[-1]
    assert "'screen_analysis.api.describe'" in loaded, "the probe did load the error words"
    assert "'pydantic'" not in loaded and "'screen_analysis.api.models'" not in loaded
