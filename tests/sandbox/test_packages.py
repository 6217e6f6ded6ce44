"""Bot packages: what `unpack_bot` accepts, what it refuses (and says why), and that
nothing it reads can make it write outside the folder it unpacks into."""

from __future__ import annotations

import io
import os
import stat
import tarfile
import time
import warnings
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from sandbox.packages import (
    MAX_FILES,
    MAX_FOLDERS,
    MAX_PACKED_BYTES,
    MAX_UNPACKED_BYTES,
    PackageError,
    PackageInfo,
    unpack_bot,
)

MAIN = b"from agon_bot import run\nrun(lambda observation, legal: legal[0])\n"
MIB = 1024 * 1024

# --- making archives -----------------------------------------------------------------


def make_zip(members: Iterable[tuple[str, bytes]]) -> bytes:
    data = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        warnings.filterwarnings("ignore", "Duplicate name", UserWarning)  # made on purpose
        for name, content in members:
            archive.writestr(name, content)
    return data.getvalue()


def zip_member(name: str, content: bytes, mode: int) -> Callable[[zipfile.ZipFile], None]:
    def add(archive: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo(name)
        info.external_attr = mode << 16
        archive.writestr(info, content)

    return add


def make_zip_with(*adders: Callable[[zipfile.ZipFile], None]) -> bytes:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("main.py", MAIN)
        for add in adders:
            add(archive)
    return data.getvalue()


def make_tar(members: Iterable[tarfile.TarInfo | tuple[str, bytes]]) -> bytes:
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                archive.addfile(member)
            else:
                name, content = member
                info = tarfile.TarInfo(name)
                info.size = len(content)
                archive.addfile(info, io.BytesIO(content))
    return data.getvalue()


def tar_special(name: str, kind: bytes, target: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = target
    return info


def tar_file(name: str, content: bytes) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    return info


# --- unpacking, with a watch on everything around the destination ---------------------


def snapshot(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*")}


@pytest.fixture
def dest(tmp_path: Path) -> Path:
    """An empty destination, next to a file and a folder that must stay as they are."""
    (tmp_path / "neighbour.txt").write_text("keep me")
    (tmp_path / "outside").mkdir()
    folder = tmp_path / "pkg" / "bot"
    folder.mkdir(parents=True)
    return folder


def refused(data: bytes, filename: str, dest: Path) -> str:
    """Unpack what must be refused; the error's message. Checks nothing was written
    outside `dest` (whatever landed inside it is the caller's to throw away)."""
    around = dest.parent.parent
    before = snapshot(around) - {str(p.relative_to(around)) for p in dest.rglob("*")}
    with pytest.raises(PackageError) as error:
        unpack_bot(data, filename, dest)
    after = {path for path in snapshot(around) if not path.startswith("pkg/bot/")}
    assert after == before, "something was written outside the destination"
    assert (around / "neighbour.txt").read_text() == "keep me"
    assert list((around / "outside").iterdir()) == []
    return str(error.value)


# --- what is accepted ----------------------------------------------------------------


def test_it_accepts_a_single_py_file_as_main_py(dest: Path) -> None:
    info = unpack_bot(MAIN, "my_bot.py", dest)
    assert (dest / "main.py").read_bytes() == MAIN
    assert info == PackageInfo(files=1, unpacked_bytes=len(MAIN))


def test_it_accepts_a_zip_with_main_py_at_the_top_and_sub_folders(dest: Path) -> None:
    data = make_zip(
        [
            ("main.py", MAIN),
            ("strategy/__init__.py", b""),
            ("strategy/openings.py", b"BOOK = {}\n"),
            ("data/weights/w.json", b"[1, 2]"),
        ]
    )
    info = unpack_bot(data, "bot.zip", dest)
    assert snapshot(dest) == {
        "main.py",
        "strategy",
        "strategy/__init__.py",
        "strategy/openings.py",
        "data",
        "data/weights",
        "data/weights/w.json",
    }
    assert (dest / "data/weights/w.json").read_bytes() == b"[1, 2]"
    assert info.files == 4
    assert stat.S_IMODE((dest / "strategy/openings.py").stat().st_mode) == 0o644


def test_it_accepts_folder_entries_and_dot_slash_names(dest: Path) -> None:
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w") as archive:
        archive.writestr("lib/", b"")
        archive.writestr("./main.py", MAIN)
        archive.writestr("lib/util.py", b"X = 1\n")
    unpack_bot(data.getvalue(), "bot.zip", dest)
    assert snapshot(dest) == {"main.py", "lib", "lib/util.py"}


@pytest.mark.parametrize("filename", ["bot.tar.gz", "bot.tgz", "BOT.TAR.GZ"])
def test_it_accepts_a_tar_gz_with_main_py_at_the_top_and_sub_folders(
    dest: Path, filename: str
) -> None:
    folder = tarfile.TarInfo("./lib")
    folder.type = tarfile.DIRTYPE
    data = make_tar([folder, ("./main.py", MAIN), ("./lib/util.py", b"X = 1\n")])
    info = unpack_bot(data, filename, dest)
    assert snapshot(dest) == {"main.py", "lib", "lib/util.py"}
    assert (dest / "main.py").read_bytes() == MAIN
    assert info.files == 2


def test_exactly_the_limits_are_still_accepted(dest: Path) -> None:
    files = [("main.py", MAIN)] + [(f"f/{i}.txt", b"") for i in range(MAX_FILES - 1)]
    assert unpack_bot(make_zip(files), "bot.zip", dest).files == MAX_FILES


# --- what is refused -----------------------------------------------------------------


def test_it_refuses_a_package_over_5_mib_packed(dest: Path) -> None:
    big = MAIN + b"#" + os.urandom(MAX_PACKED_BYTES).hex().encode()[:MAX_PACKED_BYTES]
    assert "larger than 5 MiB" in refused(big, "main.py", dest)


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_a_bomb_that_unpacks_past_50_mib(dest: Path, kind: str) -> None:
    zeros = b"\0" * (MAX_UNPACKED_BYTES + 1)
    members = [("main.py", MAIN), ("weights.bin", zeros)]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    assert len(data) < MAX_PACKED_BYTES // 10  # small outside, huge inside
    message = refused(data, f"bot.{'zip' if kind == 'zip' else 'tar.gz'}", dest)
    assert "unpacks to more than 50 MiB" in message
    assert "weights.bin" in message
    written = sum(path.stat().st_size for path in dest.rglob("*") if path.is_file())
    assert written <= MAX_UNPACKED_BYTES  # it stopped, rather than unpack and then count


def test_it_counts_the_total_not_each_file(dest: Path) -> None:
    chunk = b"\0" * (MAX_UNPACKED_BYTES // 5)
    data = make_zip([("main.py", MAIN)] + [(f"part{i}.bin", chunk) for i in range(6)])
    assert "unpacks to more than 50 MiB" in refused(data, "bot.zip", dest)


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_more_than_1000_files(dest: Path, kind: str) -> None:
    members = [("main.py", MAIN)] + [(f"many/{i}.txt", b"x") for i in range(MAX_FILES)]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    filename = "bot.zip" if kind == "zip" else "bot.tar.gz"
    assert f"more than {MAX_FILES} files" in refused(data, filename, dest)


def test_it_refuses_a_tar_of_folders_by_the_thousand(dest: Path) -> None:
    # Folder entries cost a tar.gz next to nothing: 200,000 of them pack into less than
    # 1 MB (and took 80 s to make on disk before folders were counted).
    folders = (tar_special(f"d{i}", tarfile.DIRTYPE) for i in range(5 * MAX_FOLDERS))
    data = make_tar([("main.py", MAIN), *folders])
    started = time.monotonic()
    assert f"more than {MAX_FOLDERS} folders" in refused(data, "bot.tar.gz", dest)
    assert time.monotonic() - started < 5
    assert sum(1 for _ in dest.iterdir()) <= MAX_FOLDERS + 1


def test_it_refuses_a_zip_whose_few_files_sit_in_thousands_of_nested_folders(dest: Path) -> None:
    deep = ["/".join(f"{i}x{depth}" for depth in range(100)) + "/f.py" for i in range(50)]
    data = make_zip([("main.py", MAIN), *((name, b"") for name in deep)])
    assert f"more than {MAX_FOLDERS} folders" in refused(data, "bot.zip", dest)


@pytest.mark.parametrize(
    "name", ["/etc/cron.d/evil", "/main.py", "//server/share.py"], ids=["etc", "root", "double"]
)
@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_absolute_paths(dest: Path, kind: str, name: str) -> None:
    members = [("main.py", MAIN), (name, b"evil")]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    filename = "bot.zip" if kind == "zip" else "bot.tar.gz"
    assert "absolute paths are not allowed" in refused(data, filename, dest)


@pytest.mark.parametrize("name", ["../evil.py", "lib/../../evil.py", "../outside/evil.py", ".."])
@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_dot_dot_in_paths(dest: Path, kind: str, name: str) -> None:
    members = [("main.py", MAIN), (name, b"evil")]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    filename = "bot.zip" if kind == "zip" else "bot.tar.gz"
    assert "'..' is not allowed" in refused(data, filename, dest)


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_backslashes_in_names(dest: Path, kind: str) -> None:
    # (both formats cut a name at a NUL byte themselves)
    members = [("main.py", MAIN), ("lib\\..\\..\\evil.py", b"evil")]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    filename = "bot.zip" if kind == "zip" else "bot.tar.gz"
    assert "backslashes and NUL bytes are not allowed" in refused(data, filename, dest)


@pytest.mark.parametrize(
    "member",
    [
        tar_special("link", tarfile.SYMTYPE, "/etc/passwd"),
        tar_special("lib", tarfile.SYMTYPE, "../outside"),
        tar_special("hard", tarfile.LNKTYPE, "main.py"),
        tar_special("hard_out", tarfile.LNKTYPE, "/etc/passwd"),
        tar_special("tty", tarfile.CHRTYPE),
        tar_special("disk", tarfile.BLKTYPE),
        tar_special("pipe", tarfile.FIFOTYPE),
    ],
    ids=["symlink", "symlink-out", "hardlink", "hardlink-out", "char", "block", "fifo"],
)
def test_it_refuses_links_devices_and_fifos_in_a_tar(dest: Path, member: tarfile.TarInfo) -> None:
    # a file after the special one, as an attack through a link would have it
    data = make_tar([("main.py", MAIN), member, ("lib/evil.py", b"evil")])
    message = refused(data, "bot.tar.gz", dest)
    assert "links, devices and other special files are not allowed" in message
    assert member.name in message
    assert not any(path.is_symlink() for path in dest.rglob("*"))


@pytest.mark.parametrize(
    "mode",
    [stat.S_IFLNK | 0o777, stat.S_IFIFO | 0o644, stat.S_IFCHR | 0o644, stat.S_IFSOCK | 0o644],
    ids=["symlink", "fifo", "char", "socket"],
)
def test_it_refuses_a_zip_member_whose_mode_is_not_a_plain_file(dest: Path, mode: int) -> None:
    data = make_zip_with(zip_member("lib", b"../outside", mode))
    assert "only plain files and folders are allowed" in refused(data, "bot.zip", dest)
    assert not any(path.is_symlink() for path in dest.rglob("*"))


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_a_package_without_main_py_at_the_top(dest: Path, kind: str) -> None:
    members = [("bot/main.py", MAIN), ("README.md", b"# my bot")]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    filename = "bot.zip" if kind == "zip" else "bot.tar.gz"
    assert "there is no main.py at the top of the package" in refused(data, filename, dest)


def test_it_refuses_a_folder_named_main_py(dest: Path) -> None:
    data = make_zip([("main.py/inner.py", MAIN)])
    assert "no main.py at the top" in refused(data, "bot.zip", dest)


@pytest.mark.parametrize("filename", ["bot.rar", "bot.tar", "bot.tar.bz2", "main.txt", "main"])
def test_it_refuses_a_wrong_extension(dest: Path, filename: str) -> None:
    message = refused(MAIN, filename, dest)
    assert filename in message
    assert ".py file, or a .zip or .tar.gz archive" in message


@pytest.mark.parametrize(
    ("data", "filename", "expected"),
    [
        (b"this is not a zip", "bot.zip", "not a valid zip archive"),
        (b"this is not gzip", "bot.tar.gz", "not a valid .tar.gz archive"),
        (make_zip([("main.py", MAIN)])[:40], "bot.zip", "not a valid zip archive"),
        (make_tar([("main.py", MAIN * 50)])[:-20], "bot.tar.gz", "damaged"),
    ],
    ids=["zip-junk", "tar-junk", "zip-cut", "tar-cut"],
)
def test_it_refuses_a_corrupt_archive(
    dest: Path, data: bytes, filename: str, expected: str
) -> None:
    assert expected in refused(data, filename, dest)


def test_it_refuses_a_zip_member_whose_data_is_corrupt(dest: Path) -> None:
    data = bytearray(make_zip([("main.py", MAIN * 20)]))
    middle = data.index(b"PK\x03\x04") + 30 + len("main.py") + 10
    data[middle : middle + 8] = b"\xff" * 8
    assert "cannot be read" in refused(bytes(data), "bot.zip", dest)


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_duplicate_names(dest: Path, kind: str) -> None:
    members = [("main.py", MAIN), ("lib/a.py", b"1"), ("lib/a.py", b"2")]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    filename = "bot.zip" if kind == "zip" else "bot.tar.gz"
    assert "'lib/a.py' appears twice" in refused(data, filename, dest)


def test_it_refuses_a_file_and_a_folder_of_the_same_name(dest: Path) -> None:
    data = make_zip([("main.py", MAIN), ("lib", b"a file"), ("lib/a.py", b"1")])
    assert "a file and a folder have the same name" in refused(data, "bot.zip", dest)
