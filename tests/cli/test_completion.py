"""Shell completion: `screen-analysis completion bash|zsh|fish`, and option values completed
from what this machine knows — the config's profiles and checks, the statuses, criteria,
themes, image modes and formats, and the project ids of the local cache — through click's
completion protocol (the environment a shell sets at each Tab), without a request."""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from screen_analysis.api.client import ScreenAnalysisClient
from screen_analysis.cache import CacheScope, LocalCache, default_cache_path
from screen_analysis.cli.root import cli
from screen_analysis.demo.runner import DemoServer
from screen_analysis.secret import SecretStr

CONFIG = """\
base_url = "https://api.example.test"
projects = ["proj_pinned"]

[profiles.staging]
base_url = "https://staging.example.test"

[profiles.prod]
base_url = "https://api.example.test"

[checks.release]
project_id = "proj_123"
min_score = 70

[checks.nightly]
since = "1d"
"""


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config file with two profiles, two checks and a pinned project."""
    path = tmp_path / "config.toml"
    path.write_text(CONFIG, encoding="utf-8")
    monkeypatch.setenv("SCREEN_ANALYSIS_CONFIG", str(path))
    return path


def complete(line: str, shell: str = "bash") -> list[str]:
    """The words offered for the last word of `line` (a trailing space: a new, empty word),
    as the shell's script asks for them."""
    words = line.split(" ")
    env = {
        "_SCREEN_ANALYSIS_COMPLETE": f"{shell}_complete",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(words) - 1),
    }
    result = CliRunner().invoke(cli, [], env=env, prog_name="screen-analysis")
    assert result.exit_code == 0, result.output
    if shell == "zsh":  # type, value, description: three lines each
        lines = result.stdout.splitlines()
        return [lines[i + 1] for i in range(0, len(lines), 3)]
    return [entry.partition(",")[2] for entry in result.stdout.splitlines() if entry]


def described(line: str) -> dict[str, str]:
    """zsh's answer for `line`: each value with its description ("_" for none)."""
    env = {
        "_SCREEN_ANALYSIS_COMPLETE": "zsh_complete",
        "COMP_WORDS": line,
        "COMP_CWORD": str(len(line.split(" ")) - 1),
    }
    lines = CliRunner().invoke(cli, [], env=env, prog_name="screen-analysis").stdout.splitlines()
    return {lines[i + 1]: lines[i + 2] for i in range(0, len(lines), 3)}


def test_a_profile_completes_from_the_config_file(config: Path) -> None:
    assert complete("screen-analysis -P ") == ["staging", "prod"]
    assert complete("screen-analysis --profile st") == ["staging"]
    assert complete("screen-analysis login -P ") == ["staging", "prod"]
    assert complete("screen-analysis auth status --profile p") == ["prod"]
    assert complete("screen-analysis cache clear --profile ") == ["staging", "prod"]
    assert described("screen-analysis -P ")["staging"] == "https://staging.example.test"


def test_check_completes_the_checks_of_the_file_it_would_read(config: Path, tmp_path: Path) -> None:
    assert complete("screen-analysis check ") == ["release", "nightly"]
    assert complete("screen-analysis check n") == ["nightly"]
    assert described("screen-analysis check ")["release"] == "project proj_123"
    own = tmp_path / "checks.toml"
    own.write_text("[checks.smoke]\nmin_count = 1\n", encoding="utf-8")
    assert complete(f"screen-analysis check --config-file {own} ") == ["smoke"]


def test_statuses_formats_and_image_modes_complete(config: Path) -> None:
    statuses = ["pending", "processing", "completed", "failed"]
    assert complete("screen-analysis analyses list --status ") == statuses
    assert complete("screen-analysis report --status f") == ["failed"]
    assert complete("screen-analysis analyses list --format j") == ["json", "jsonl"]
    assert complete("screen-analysis report --format ") == ["html", "md"]
    assert complete("screen-analysis check --format ") == ["table", "json", "junit", "github"]
    assert complete("screen-analysis cache info --format ") == ["table", "json"]
    assert complete("screen-analysis --images ") == ["auto", "kitty", "sixel", "halfcell", "off"]
    assert complete("screen-analysis completion ") == ["bash", "zsh", "fish"]


def test_criteria_complete_with_their_equals_sign(config: Path) -> None:
    assert complete("screen-analysis check --min ") == [
        "visual_clarity=",
        "visual_hierarchy=",
        "color_contrast=",
        "cta_effectiveness=",
        "brand_consistency=",
    ]
    assert complete("screen-analysis check --min col") == ["color_contrast="]
    assert complete("screen-analysis check --min color_contrast=5") == []


def test_themes_complete_the_shipped_textuals_and_the_users(config: Path) -> None:
    assert complete("screen-analysis --theme screen-analysis-") == [
        "screen-analysis-dark",
        "screen-analysis-high-contrast",
        "screen-analysis-light",
    ]
    assert "nord" in complete("screen-analysis --theme ")
    folder = Path(os.environ["XDG_CONFIG_HOME"]) / "screen-analysis" / "themes"
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text('name = "my-own"\nprimary = "#336699"\n', encoding="utf-8")
    assert complete("screen-analysis --theme my") == ["my-own"]


def keep_projects(server: DemoServer, scope: CacheScope, count: int) -> list[str]:
    """What the app keeps after showing `count` projects' views: each project and the first
    page of its analyses. The ids, in the order they were viewed."""
    ids = [project.id for project in server.store.projects()[:count]]

    async def fetch() -> None:
        cache = LocalCache(scope)
        client = ScreenAnalysisClient(server.base_url, SecretStr(server.api_key))
        async with client:
            for project_id in ids:
                cache.store_project(await client.get_project(project_id))
                async with client.iter_pages(project_id=project_id, limit=20) as walk:
                    async for page in walk:
                        cache.store_page(
                            project_id, None, page.items, total=page.total, done=False, first=True
                        )
                        break
                cache.flush()
                cache.view(project_id, None)  # viewed in this order
        await asyncio.to_thread(cache.close)

    asyncio.run(fetch())
    return ids


def test_project_ids_complete_from_the_local_cache_without_a_request(
    fresh_demo_server: DemoServer, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = fresh_demo_server
    kept = keep_projects(server, CacheScope(server.base_url.rstrip("/")), 2)
    server.request_log.clear()
    monkeypatch.setenv("SCREEN_ANALYSIS_BASE_URL", server.base_url)
    for line in (
        "screen-analysis analyses list --project-id ",
        "screen-analysis report --project-id ",
        "screen-analysis check --project-id ",
        "screen-analysis projects get ",
        "screen-analysis --project ",
    ):
        offered = complete(line)
        assert set(offered) == {*kept, "proj_pinned"}, line
        assert offered[-1] == "proj_pinned"  # the pinned one, not kept, comes last
    names = described("screen-analysis analyses list --project-id ")
    assert names[kept[0]] == server.store.get_project(kept[0])["name"]  # type: ignore[index]
    assert complete(f"screen-analysis analyses list --project-id {kept[1][:-2]}") == [kept[1]]
    assert server.request_log == [], "completing a word sends nothing"


def test_project_ids_are_the_servers_and_profiles_in_use(
    fresh_demo_server: DemoServer, config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = fresh_demo_server
    keep_projects(server, CacheScope("https://staging.example.test", "staging"), 1)
    assert complete("screen-analysis analyses list --project-id ") == ["proj_pinned"]
    staging = complete("screen-analysis -P staging analyses list --project-id ")
    assert len(staging) == 2 and staging[-1] == "proj_pinned"
    assert complete("screen-analysis --demo analyses list --project-id ") == ["proj_pinned"]
    assert complete("screen-analysis --no-cache -P staging check --project-id ") == ["proj_pinned"]


def test_server_text_in_a_completion_is_made_safe(config: Path) -> None:
    """An id a shell would split or glob is not offered; a name's control characters are
    shown, never sent to the terminal."""
    from screen_analysis.api.models import Project

    cache = LocalCache(CacheScope("https://api.example.test"))
    for project_id, name in (("proj_ok", "Acme\x1b[31m\nCheckout"), ("proj *", "globbed")):
        cache.store_project(
            Project.model_validate(
                {"id": project_id, "name": name, "created_at": "2026-01-01T00:00:00Z"}
            )
        )
    cache.close()
    names = described("screen-analysis analyses list --project-id ")
    assert names == {"proj_ok": "Acme␛[31m Checkout", "proj_pinned": "pinned in the config"}


def test_a_damaged_config_or_cache_completes_nothing_and_changes_nothing(
    config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache_file = default_cache_path()
    cache_file.parent.mkdir(parents=True)
    cache_file.write_bytes(b"not a database at all")
    assert complete("screen-analysis analyses list --project-id ") == ["proj_pinned"]
    assert cache_file.read_bytes() == b"not a database at all"
    assert not cache_file.with_name(cache_file.name + ".bad").exists()
    config.write_text("profiles = [", encoding="utf-8")
    assert complete("screen-analysis -P ") == []
    assert complete("screen-analysis check ") == []
    assert complete("screen-analysis analyses list --project-id ") == []
    assert complete("screen-analysis --images ") == ["auto", "kitty", "sixel", "halfcell", "off"]


def test_completion_prints_each_shells_script(config: Path) -> None:
    runner = CliRunner()
    bash = runner.invoke(cli, ["completion", "bash"]).stdout
    assert "_SCREEN_ANALYSIS_COMPLETE=bash_complete" in bash
    assert "complete -o nosort -F _screen_analysis_completion screen-analysis" in bash
    assert "[[ $value == *= ]] && compopt -o nospace" in bash  # `--min color_contrast=` then N
    assert (
        "compdef _screen_analysis_completion screen-analysis"
        in runner.invoke(cli, ["completion", "zsh"]).stdout
    )
    assert (
        "complete --no-files --command screen-analysis"
        in runner.invoke(cli, ["completion", "fish"]).stdout
    )
    refused = runner.invoke(cli, ["completion", "tcsh"])
    assert refused.exit_code == 2 and "'tcsh' is not one of" in refused.stderr


EXE = shutil.which("screen-analysis")


@pytest.mark.skipif(not EXE or not shutil.which("bash"), reason="console script or bash missing")
def test_bash_completes_with_the_script_the_command_prints(config: Path) -> None:
    """A real bash sources the script and runs its completion function, which runs the
    installed console script, as at `screen-analysis check <Tab><Tab>`."""
    script = (
        f"source <({shlex.quote(str(EXE))} completion bash)\n"
        "complete -p screen-analysis\n"
        "for line in 'screen-analysis check ' 'screen-analysis check --min cta'; do\n"
        '  read -ra COMP_WORDS <<< "$line"; [[ $line == *" " ]] && COMP_WORDS+=("")\n'
        "  COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); COMPREPLY=()\n"
        "  _screen_analysis_completion screen-analysis\n"
        '  echo "${COMPREPLY[*]}"\n'
        "done\n"
    )
    path = f"{Path(str(EXE)).parent}{os.pathsep}{os.environ['PATH']}"
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATH": path},
    )
    assert done.returncode == 0, done.stderr
    registered, checks, criteria = done.stdout.splitlines()
    assert registered == "complete -o nosort -F _screen_analysis_completion screen-analysis"
    assert checks == "release nightly"
    assert criteria == "cta_effectiveness="
