"""How a bot starts inside its box: one Python interpreter, which readies the box and
then runs the bot's main.py itself, as `python3 main.py` would.

The box's seccomp filter is in force before the interpreter starts: bubblewrap loads it
itself, and a Docker box's launcher (`sandbox/box_launch.c`, compiled into the bot image)
installs it, stacked on Docker's own profile, before it execs the interpreter. Then
`START_BOT` (given to `python3 -c`) moves the bot's stdout onto fd 1 where the backend
hands it in on another descriptor (bubblewrap), puts the bot's folder on the import path
and runs main.py in the interpreter's `__main__`.

One interpreter, where a bubblewrap box ran `bash` then `python3 main.py`, and a Docker
box `sh`, `env`, `python3 -c <install the filter>` then `python3 main.py`. The flags
(`START_FLAGS`):

- `-P`: neither the current folder nor a script's is on the import path while
  `START_BOT` runs, so nothing of the bot's can be imported in place of what the
  start-up code imports (today `os` and `site`, frozen in the interpreter, which no file
  can shadow; before the launcher, the `_ctypes` of the filter's installer);
- `-S`: no `site` at start, so no `.pth` file of the system's runs in a box (they import
  what they like: certifi, setuptools' shim); `START_BOT` adds the site folders that
  `site` would have (without running their `.pth` files), so NumPy imports as before,
  and the builtins it would have (`exit`, `quit`, `help`, ...).

The bot sees what `python3 main.py` shows it: `sys.argv == ["main.py"]`, `__file__`
the absolute path of main.py, `__name__ == "__main__"`, the same `sys.path` (its folder,
PYTHONPATH, the standard library, the site folders) and environment. What differs is
`sys.flags` (`no_site`, `safe_path`), which `multiprocessing`'s spawn start method
passes on to the interpreters it starts (they then find the standard library and
PYTHONPATH, not the site folders); fork, Linux's default, is as before.
"""

from __future__ import annotations

START_FLAGS = ("-P", "-S")

START_FUNCTION = """\
def start(stdout_fd):
    import os, sys
    if stdout_fd:
        os.dup2(int(stdout_fd), 1)
        os.close(int(stdout_fd))
    import builtins, site
    folder = os.getcwd()
    path = os.path.join(folder, "main.py")
    # PYTHONPATH and the standard library are there already, as with `python3 main.py`.
    sites = [entry for entry in site.getsitepackages() if os.path.isdir(entry)]
    sys.path[:] = [folder, *sys.path, *sites]
    # The builtins `site` adds (exit, quit, help, copyright, credits, license).
    site.setquit()
    site.setcopyright()
    site.sethelper()
    sys.argv[:] = ["main.py"]
    with open(path, "rb") as file:
        code = compile(file.read(), path, "exec", dont_inherit=True)
    namespace = sys.modules["__main__"].__dict__
    namespace.clear()
    namespace.update(
        __name__="__main__",
        __doc__=None,
        __package__=None,
        __spec__=None,
        # importlib.machinery's, without importing importlib (and warnings) for it.
        __loader__=sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", path),
        __file__=path,
        __cached__=None,
        __builtins__=builtins,
    )
    exec(code, namespace)
"""
"""`start(stdout_fd)`, what runs the bot; also the fork server's last act in each box it
makes (`sandbox.fork_server_main`)."""

START_BOT = START_FUNCTION + "import sys\nstart(sys.argv[1])\n"
"""Python for `python3 -P -S -c`, with one argument: the descriptor of the bot's stdout
(or "" where it is fd 1 already). Run in the bot's folder, its box's filter in force."""


def start_argv(python: str, *, stdout_fd: int | None = None) -> list[str]:
    """The command line that starts the bot of the current folder with `python`."""
    fd = "" if stdout_fd is None else str(stdout_fd)
    return [python, *START_FLAGS, "-c", START_BOT, fd]
