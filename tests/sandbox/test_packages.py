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
    MAX_DEPTH,
    MAX_FILES,
    MAX_FOLDERS,
    MAX_NAME_BYTES,
    MAX_PACKED_BYTES,
    MAX_PATH_BYTES,
    MAX_UNPACKED_BYTES,
    PackageError,
    PackageInfo,
    check_package,
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
    """Unpack what must be refused; the error's message. Checks that the check without
    unpacking refuses it the same way, and that nothing is left behind: not outside
    `dest`, and not inside it either."""
    around = dest.parent.parent
    before = snapshot(around)
    with pytest.raises(PackageError) as checked:
        check_package(data, filename)
    with pytest.raises(PackageError) as error:
        unpack_bot(data, filename, dest)
    assert snapshot(around) == before, "a refused package left something behind"
    assert (around / "neighbour.txt").read_text() == "keep me"
    assert str(checked.value) == str(error.value)
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


def test_it_refuses_a_zip_whose_few_files_sit_in_thousands_of_nested_folders(dest: Path) -> None:
    deep = ["/".join(f"{i}x{depth}" for depth in range(30)) + "/f.py" for i in range(50)]
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


# --- shapes checked from the listing, before anything is written ----------------------


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_a_path_thousands_of_folders_deep_at_once(dest: Path, kind: str) -> None:
    # 8 KB of zip made a request create 1,000 folders, then fail to clean them up.
    deep = "/".join(["d"] * 2000) + "/f.py"
    members = [("main.py", MAIN), (deep, b"")]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    assert len(data) < 16 * 1024
    started = time.monotonic()
    message = refused(data, "bot.zip" if kind == "zip" else "bot.tar.gz", dest)
    assert time.monotonic() - started < 1
    assert f"nested more than {MAX_DEPTH} levels deep" in message
    assert len(message) < 300, "the message quotes a bounded part of the name"


def test_it_refuses_a_folder_entry_nested_too_deep(dest: Path) -> None:
    folder = tar_special("/".join(["d"] * (MAX_DEPTH + 1)), tarfile.DIRTYPE)
    assert "levels deep" in refused(make_tar([("main.py", MAIN), folder]), "bot.tgz", dest)


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_refuses_a_name_longer_than_a_file_system_takes(dest: Path, kind: str) -> None:
    members = [("main.py", MAIN), ("lib/" + "n" * (MAX_NAME_BYTES + 1) + ".py", b"")]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    message = refused(data, "bot.zip" if kind == "zip" else "bot.tar.gz", dest)
    assert f"a name longer than {MAX_NAME_BYTES} bytes" in message


def test_it_counts_a_names_length_in_bytes(dest: Path) -> None:
    name = "é" * (MAX_NAME_BYTES // 2 + 1)  # few characters, too many bytes
    message = refused(make_zip([("main.py", MAIN), (name, b"")]), "bot.zip", dest)
    assert f"a name longer than {MAX_NAME_BYTES} bytes" in message


def test_it_refuses_a_path_longer_than_the_limit(dest: Path) -> None:
    parts = ["p" * 200] * (MAX_PATH_BYTES // 200 + 1)
    message = refused(make_zip([("main.py", MAIN), ("/".join(parts), b"")]), "bot.zip", dest)
    assert f"a path longer than {MAX_PATH_BYTES} bytes" in message


def test_exactly_the_depth_and_length_limits_are_still_accepted(dest: Path) -> None:
    deepest = "/".join(["d"] * (MAX_DEPTH - 1)) + "/f.py"
    longest_name = "n" * (MAX_NAME_BYTES - 3) + ".py"
    members = [("main.py", MAIN), (deepest, b"deep"), (longest_name, b"long")]
    unpack_bot(make_zip(members), "bot.zip", dest)
    assert (dest / deepest).read_bytes() == b"deep"
    assert (dest / longest_name).read_bytes() == b"long"


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_it_declines_a_listing_of_twenty_thousand_entries_without_reading_them_all(
    dest: Path, kind: str
) -> None:
    members = [("main.py", MAIN)] + [(f"{i}", b"") for i in range(20 * MAX_FILES)]
    data = make_zip(members) if kind == "zip" else make_tar(members)
    started = time.monotonic()
    assert "more than" in refused(data, "bot.zip" if kind == "zip" else "bot.tar.gz", dest)
    assert time.monotonic() - started < 2


def test_a_tar_whose_stream_inflates_past_the_limit_is_refused_while_inflating(
    dest: Path,
) -> None:
    # A gzip member may hold a gigabyte of zeros in a few megabytes: the listing of the
    # tar inside it must not inflate all of it first.
    zeros = tar_file("zeros.bin", b"")
    zeros.size = 4 * MAX_UNPACKED_BYTES
    stream = io.BytesIO()
    with tarfile.open(fileobj=stream, mode="w:gz") as archive:
        archive.addfile(tar_file("main.py", MAIN), io.BytesIO(MAIN))
        archive.addfile(zeros, io.BytesIO(bytes(zeros.size)))
    started = time.monotonic()
    assert "unpacks to more than 50 MiB" in refused(stream.getvalue(), "bot.tgz", dest)
    assert time.monotonic() - started < 2


def test_checking_a_package_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    data = make_zip([("main.py", MAIN), ("lib/a.py", b"A = 1\n")])
    assert check_package(data, "bot.zip") == PackageInfo(files=2, unpacked_bytes=len(MAIN) + 6)
    assert list(tmp_path.iterdir()) == []
