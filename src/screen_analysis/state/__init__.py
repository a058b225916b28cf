"""State kept between runs in the user data dir: the projects seen before and the place the
app was left at (project, status tab, the analysis picked), per server; layout choices
(`LayoutPreferences`, in a file of their own).

The state file is JSON: one list of project ids per server, and per server and profile
("" for none) the last place (the embedded demo server is kept under "demo", since its
address changes with every run):

    {"servers": {"https://api.example.com": ["proj_1", "proj_2"], "demo": ["proj_9"]},
     "places": {"demo": {"": {"project": "proj_9", "status": "failed",
                              "analysis": "ana_1"}}}}

Several copies of the app may run at once (one per browser tab under `serve`), so a change
never writes back what was read earlier: each change re-reads the file under its lock and
applies only itself (`file.change_state`). A damaged file (not JSON, the wrong shape, not
UTF-8, nested deeper than `file_reads.MAX_NESTING`) is never overwritten in place: it is
moved aside to `state.json.bad`, the entries that could be read are written back, and one
warning names both files and what was wrong. What is not a regular file (a named pipe, a
directory, a symbolic link: these files are the app's own, and a write through a planted
link would land on another file) or is over `MAX_STATE_BYTES` is neither read nor written:
one warning, and the projects are remembered for the run only.
"""

from screen_analysis.state.file import (
    DEMO_SERVER,
    StateData,
    load_state,
    parse_state,
    read_state,
    server_key,
)
from screen_analysis.state.layout import LayoutPreferences
from screen_analysis.state.place import Place, RememberedPlace
from screen_analysis.state.projects import RememberedProjects

__all__ = [
    "DEMO_SERVER",
    "LayoutPreferences",
    "Place",
    "RememberedPlace",
    "RememberedProjects",
    "StateData",
    "load_state",
    "parse_state",
    "read_state",
    "server_key",
]
