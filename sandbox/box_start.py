"""How a bot starts inside its box: one Python interpreter, which readies the box and
then runs the bot's main.py itself, as `python3 main.py` would.

Before the bot's first instruction, `START_BOT` (given to `python3 -c`) installs the
box's seccomp filter where the backend has not already (Docker: stacked on Docker's own
profile; bubblewrap loads it itself) and moves the bot's stdout onto fd 1 where the
backend hands it in on another descriptor (bubblewrap). Only then does it put the bot's
folder on the import path and run main.py in the interpreter's `__main__`.

One interpreter, where a bubblewrap box ran `bash` then `python3 main.py`, and a Docker
box `python3 -c <install the filter>` then `python3 main.py` (after its `sh` and `env`,
which stay). The flags (`START_FLAGS`):

- `-P`: neither the current folder nor a script's is on the import path while
  `START_BOT` runs, so nothing of the bot's (a `ctypes.py` in /bot) can be imported
  before the filter is in force;
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
def start(filter_path, stdout_fd):
    import os, sys
    if filter_path:
        # ctypes's own C module, not the ctypes package (a third of a bare interpreter's
        # start to import): the three C types and the one function the filter needs.
        import _ctypes
        with open(filter_path, "rb") as file:
            program = file.read()
        class Int(_ctypes._SimpleCData):
            _type_ = "i"
        class UShort(_ctypes._SimpleCData):
            _type_ = "H"
        class CharP(_ctypes._SimpleCData):
            _type_ = "z"
        class Program(_ctypes.Structure):
            _fields_ = [("length", UShort), ("instructions", CharP)]
        class Function(_ctypes.CFuncPtr):
            _flags_ = _ctypes.FUNCFLAG_CDECL | _ctypes.FUNCFLAG_USE_ERRNO
            _restype_ = Int
        class Libc:
            _handle = _ctypes.dlopen(None, 0)
        prctl = Function(("prctl", Libc()))
        # PR_SET_NO_NEW_PRIVS (38), then PR_SET_SECCOMP (22) with SECCOMP_MODE_FILTER (2)
        installed = Program(len(program) // 8, program)
        if prctl(38, 1, 0, 0, 0) or prctl(22, 2, _ctypes.byref(installed), 0, 0):
            error = os.strerror(_ctypes.get_errno())
            sys.exit("agon: the box's seccomp filter could not be installed: " + error)
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
"""`start(filter_path, stdout_fd)`, what runs the bot; also the fork server's last
act in each box it makes (`sandbox.fork_server_main`)."""

START_BOT = START_FUNCTION + "import sys\nstart(*sys.argv[1:3])\n"
"""Python for `python3 -P -S -c`, with two arguments: the filter's file (or "" where
the box has its filter already) and the descriptor of the bot's stdout (or "" where it
is fd 1 already). Run in the bot's folder."""


def start_argv(python: str, *, filter_path: str = "", stdout_fd: int | None = None) -> list[str]:
    """The command line that starts the bot of the current folder with `python`."""
    fd = "" if stdout_fd is None else str(stdout_fd)
    return [python, *START_FLAGS, "-c", START_BOT, filter_path, fd]
