"""Writing a part: rows in, a Parquet file on local disk out, in bounded memory.

Rows are held only until a row group's worth (AGON_DATASET_ROW_GROUP_BYTES of text, or
ROW_GROUP_ROWS rows) has come, then written as one row group: a part of any size costs
one row group's memory. The file is written with fixed settings (zstd, no timestamps),
so the same rows always give the same bytes: the name made of its digest is the same
when a build that died is run again."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from agon.datasets.schema import COLUMNS, SCHEMA_VERSION

ARROW_SCHEMA = pa.schema(
    [pa.field(column.name, pa.type_for_alias(column.type)) for column in COLUMNS],
    metadata={"agon.schema_version": str(SCHEMA_VERSION)},
)
ROW_GROUP_ROWS = 50_000
TEXT_COLUMNS = ("observation", "action", "options")


class PartWriter:
    """A Parquet file being written at `path`, a row group at a time."""

    def __init__(self, path: Path, *, row_group_bytes: int) -> None:
        self.path = path
        self.row_group_bytes = row_group_bytes
        self.rows = 0
        self._writer = pq.ParquetWriter(
            str(path), ARROW_SCHEMA, compression="zstd", write_statistics=True
        )
        self._buffer: dict[str, list[Any]] = {column.name: [] for column in COLUMNS}
        self._buffered_rows = 0
        self._buffered_bytes = 0

    def add(self, row: dict[str, Any]) -> None:
        for name, values in self._buffer.items():
            values.append(row[name])
        self._buffered_rows += 1
        self._buffered_bytes += sum(len(row[name]) for name in TEXT_COLUMNS)
        if self._buffered_bytes >= self.row_group_bytes or self._buffered_rows >= ROW_GROUP_ROWS:
            self.flush()

    def add_table(self, table: Any) -> None:
        """Rows already in Arrow form (a row group of another part, filtered)."""
        if table.num_rows:
            self.flush()
            self._writer.write_table(table)
            self.rows += table.num_rows

    def flush(self) -> None:
        if self._buffered_rows:
            table = pa.Table.from_pydict(self._buffer, schema=ARROW_SCHEMA)
            self._writer.write_table(table)
            self.rows += self._buffered_rows
        for values in self._buffer.values():
            values.clear()
        self._buffered_rows = 0
        self._buffered_bytes = 0

    def close(self) -> None:
        self.flush()
        self._writer.close()


def file_digest(path: Path) -> tuple[str, int]:
    """The file's sha256 (hex) and size, read in blocks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
            size += len(block)
    return digest.hexdigest(), size


def copy_without(source: Any, writer: PartWriter, match_ids: Iterable[int]) -> None:
    """Every row group of the Parquet file `source` (a binary file object, seekable: a
    stored file as Django's storage opens it) into `writer`, less the rows of
    `match_ids`: a row group at a time."""
    dropped = pa.array(sorted(set(match_ids)), type=pa.int64())
    parquet = pq.ParquetFile(source)
    for index in range(parquet.num_row_groups):
        group = parquet.read_row_group(index)
        kept = group.filter(pc.invert(pc.is_in(group["match_id"], value_set=dropped)))
        writer.add_table(kept.replace_schema_metadata(ARROW_SCHEMA.metadata))
