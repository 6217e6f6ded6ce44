"""docs/datasets.md: its Python example reads a folder as `agon-kit dataset pull` leaves
it (the parts, the manifest beside them, a part half downloaded), as written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

PAGE = Path(__file__).parents[2] / "docs" / "datasets.md"
TEXT = PAGE.read_text(encoding="utf-8")
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def test_the_example_reads_a_pulled_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (block,) = PYTHON_BLOCK.findall(TEXT)
    folder = tmp_path / "akropolis-dataset"
    folder.mkdir()
    for number, rows in ((1, 3), (2, 2)):
        table = pa.table({"match_id": pa.array(range(rows), pa.int64())})
        pq.write_table(table, folder / f"part-{number:06d}-0123456789ab.parquet")
    (folder / "manifest.json").write_text(json.dumps({"parts": []}), encoding="utf-8")
    (folder / "part-000003-0123456789ab.parquet.partial").write_bytes(b"PAR1")
    monkeypatch.chdir(tmp_path)

    exec(compile(block, str(PAGE), "exec"), {})  # noqa: S102 - the page's own example

    assert capsys.readouterr().out.startswith("5 match_id: int64")
