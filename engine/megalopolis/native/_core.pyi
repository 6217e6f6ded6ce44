# Megalopolis' compiled core (_core.c): see engine/megalopolis/native/__init__.py.
VERSION: int

def setup(
    tile: type,
    neighbour_steps: tuple[int, ...],
    bonus: tuple[int, ...],
    silver: tuple[bool, ...],
    smallest_scoring_group: int,
    /,
) -> None: ...
def score_parts(board: dict[int, object], players: int, /) -> list[tuple[int, int, int, int]]: ...
