"""Megalopolis component data: the 21 kinds of tiles, their counts, printed bonus points,
silver-ringed borders and powers, and the numbers of the rules.

Every item says where it comes from: `sourced` (the rules text or the project's rules
file says so) or `reconstructed` (not published anywhere we could read; the rules file
tells us what to assume). The powers are quoted from the French rules text, with our
English reading; `powers.py` carries each of them out.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.provenance import Provenance, Quantity

RULES_NUMBERS: tuple[Quantity, ...] = (
    Quantity("tiles", 120, "sourced", "120 tuiles"),
    Quantity("tokens_per_player", 15, "sourced", "15 jetons en bois de six couleurs"),
    Quantity("hand_size", 5, "sourced", "chaque joueur reçoit 5 tuiles; refill to 5"),
    Quantity("starting_cross", 5, "sourced", "5 tuiles placées en forme de croix face cachée"),
    Quantity("smallest_scoring_group", 3, "sourced", "groupes de minimum 3 tuiles"),
    Quantity("factory_draw", 5, "sourced", "piochez à nouveau 5 tuiles supplémentaires"),
    Quantity("library_look", 5, "sourced", "regardez les cinq premières tuiles"),
    Quantity("arboretum_tokens", 3, "sourced", "jusqu'à trois de vos jetons"),
    Quantity("power_stations_to_end", 5, "sourced", "si les cinq Power Stations sont en jeu"),
)
NUMBERS = {quantity.name: quantity.value for quantity in RULES_NUMBERS}

TOKENS_PER_PLAYER = NUMBERS["tokens_per_player"]
HAND_SIZE = NUMBERS["hand_size"]
SMALLEST_SCORING_GROUP = NUMBERS["smallest_scoring_group"]
FACTORY_DRAW = NUMBERS["factory_draw"]
LIBRARY_LOOK = NUMBERS["library_look"]
ARBORETUM_TOKENS = NUMBERS["arboretum_tokens"]
POWER_STATIONS_TO_END = NUMBERS["power_stations_to_end"]


@dataclass(frozen=True)
class Kind:
    """One kind of tile. `count` and `power` are sourced for every kind; `bonus` and
    `silver` carry their own provenance."""

    name: str
    count: int
    bonus: int
    bonus_provenance: Provenance
    silver: bool
    silver_provenance: Provenance
    power_fr: str
    power: str
    abbreviation: str


KINDS: tuple[Kind, ...] = (
    Kind(
        "arboretum", 4, 0, "reconstructed", False, "reconstructed",
        "Vous pouvez reprendre en main jusqu'à trois de vos jetons posés sur des tuiles.",
        "You may take back up to three of your tokens from tiles.",
        "ARB",
    ),
    Kind(
        "bank", 6, 1, "reconstructed", False, "reconstructed",
        "Échangez le jeton de cette tuile avec un jeton d'une tuile que vous ne contrôlez pas.",
        "Swap your token on this tile with a token on a tile you do not control.",
        "BNK",
    ),
    Kind(
        "capitol", 1, 1, "reconstructed", False, "reconstructed",
        "Placez un de vos jetons sur chaque tuile adjacente et rendez à leurs propriétaires "
        "les jetons qui s'y trouveraient déjà. Ceci prévaut sur la protection des Power "
        "Station.",
        "Put one of your tokens on each adjacent tile, returning the tokens already there to "
        "their owners. This overrides the Power Station's protection.",
        "CAP",
    ),
    Kind(
        "construction_site", 7, 0, "reconstructed", True, "sourced",
        "Jouez une autre tuile.",
        "Play another tile.",
        "CON",
    ),
    Kind(
        "disaster_site", 3, 0, "reconstructed", False, "reconstructed",
        "Choisissez une tuile déjà en jeu et placez-la au bas de la pioche. Rendez les jetons "
        "qui s'y trouveraient à leurs propriétaires.",
        "Put a tile in play at the bottom of the deck, returning its tokens to their owners.",
        "DIS",
    ),
    Kind(
        "embassy", 8, 0, "reconstructed", False, "reconstructed",
        "Placez un de vos jetons sur une tuile adjacente et rendez à leurs propriétaires les "
        "jetons qui s'y trouveraient.",
        "Put one of your tokens on an adjacent tile, returning the tokens there to their "
        "owners.",
        "EMB",
    ),
    Kind(
        "factory", 5, 0, "reconstructed", True, "reconstructed",
        "Après avoir recomposé votre main, piochez à nouveau 5 tuiles supplémentaires.",
        "After refilling your hand, draw 5 more tiles.",
        "FAC",
    ),
    Kind(
        "hotel", 4, 0, "reconstructed", False, "reconstructed",
        "Les joueurs qui n'ont pas de jeton sur cet Hôtel peuvent en placer un au lieu de "
        "placer une tuile.",
        "A player without a token on this Hotel may put one on it instead of playing a tile.",
        "HOT",
    ),
    Kind(
        "housing", 10, 0, "reconstructed", False, "reconstructed",
        "Placez un de vos jetons sur une tuile vide.",
        "Put one of your tokens on an empty tile (a placed tile with no token).",
        "HOU",
    ),
    Kind(
        "library", 6, 0, "reconstructed", False, "reconstructed",
        "Regardez les cinq premières tuiles de la pioche. Jouez-en une immédiatement à "
        "condition que ce ne soit pas une autre Library. Placez ensuite les quatre tuiles "
        "restantes au bas de la pioche.",
        "Look at the top five tiles of the deck; play one of them that is not a Library; put "
        "the others at the bottom of the deck.",
        "LIB",
    ),
    Kind(
        "mausoleum", 6, 0, "reconstructed", False, "reconstructed",
        "Prenez en main l'une des tuiles adjacentes à celle-ci. Rendez à leur propriétaire "
        "les jetons qui s'y trouveraient.",
        "Take an adjacent tile into your hand, returning its tokens to their owners.",
        "MAU",
    ),
    Kind(
        "plaza", 6, 0, "reconstructed", False, "reconstructed",
        "Toutes les tuiles doivent être placées à côté d'une Plaza, si possible. Ceci prévaut "
        "sur les règles de placement des autres tuiles.",
        "Every tile must be placed next to a Plaza if possible; this overrides the placement "
        "rules of other tiles.",
        "PLZ",
    ),
    Kind(
        "police_hq", 3, 1, "sourced", False, "reconstructed",
        "Quand cette tuile est jouée, tous les joueurs doivent y poser un jeton.",
        "When this tile is played, every player must put a token on it.",
        "POL",
    ),
    Kind(
        "port", 8, 0, "reconstructed", True, "reconstructed",
        "Placez la 1ère tuile de la pioche, face cachée, adjacente à n'importe quelle tuile.",
        "Place the top tile of the deck face down next to any tile.",
        "PRT",
    ),
    Kind(
        "post_office", 8, 0, "reconstructed", False, "reconstructed",
        "Déplacez une tuile -ainsi que les jetons qui sont posés dessus- vers un nouvel "
        "emplacement.",
        "Move a tile, with its tokens, to a new place.",
        "PST",
    ),
    Kind(
        "power_station", 5, 1, "sourced", True, "sourced",
        "Les instructions figurant sur d'autres tuiles ne peuvent s'appliquer ou affecter "
        "d'une quelconque manière cette tuile et les tuiles adjacentes, ni les jetons qui se "
        "trouvent sur ces tuiles. Si les cinq Power Stations sont en jeu, la partie s'arrête "
        "immédiatement.",
        "Other tiles' instructions cannot affect this tile, its adjacent tiles, or the tokens "
        "on them. If all five Power Stations are in play, the game ends at once.",
        "PWR",
    ),
    Kind(
        "security_guard", 9, 0, "reconstructed", False, "reconstructed",
        "Rendez à leur propriétaire tous les jetons posés sur une tuile de votre choix.",
        "Return all the tokens on a tile of your choice to their owners.",
        "SEC",
    ),
    Kind(
        "shopping_complex", 4, 0, "reconstructed", False, "reconstructed",
        "Échangez votre main de tuiles avec un autre joueur.",
        "Swap your hand of tiles with another player's.",
        "SHP",
    ),
    Kind(
        "stadium", 5, 1, "reconstructed", False, "reconstructed",
        "Déplacez un ou tous les jetons d'une tuile adjacente vers celle-ci.",
        "Move one or all of the tokens of an adjacent tile onto this one.",
        "STA",
    ),
    Kind(
        "temple", 4, 1, "reconstructed", False, "reconstructed",
        "Regardez la main d'un autre joueur. Piochez-y et jouez une de ses tuiles. Ce joueur "
        "pioche une autre tuile.",
        "Look at another player's hand, take one of its tiles and play it; that player draws "
        "a tile.",
        "TMP",
    ),
    Kind(
        "transit_station", 8, 0, "reconstructed", True, "reconstructed",
        "Échangez les positions de deux tuiles, avec tous leurs jetons.",
        "Swap the places of two tiles, with all their tokens.",
        "TRN",
    ),
)  # fmt: skip
"""The 21 kinds, in the rules text's order. Counts and powers: sourced. Bonus points and
silver borders: sourced for the Power Station (bonus 1, silver), the Police HQ (bonus 1)
and the Construction Site (silver); reconstructed for the others as the rules file says
(bonus 1 on Capitol, Bank, Stadium, Temple; silver on Factory, Port, Transit Station)."""

KIND_NAMES: tuple[str, ...] = tuple(kind.name for kind in KINDS)
KIND_OF_NAME: dict[str, int] = {name: index for index, name in enumerate(KIND_NAMES)}
COUNTS: tuple[int, ...] = tuple(kind.count for kind in KINDS)
BONUS: tuple[int, ...] = tuple(kind.bonus for kind in KINDS)
SILVER: tuple[bool, ...] = tuple(kind.silver for kind in KINDS)

(
    ARBORETUM,
    BANK,
    CAPITOL,
    CONSTRUCTION_SITE,
    DISASTER_SITE,
    EMBASSY,
    FACTORY,
    HOTEL,
    HOUSING,
    LIBRARY,
    MAUSOLEUM,
    PLAZA,
    POLICE_HQ,
    PORT,
    POST_OFFICE,
    POWER_STATION,
    SECURITY_GUARD,
    SHOPPING_COMPLEX,
    STADIUM,
    TEMPLE,
    TRANSIT_STATION,
) = range(len(KINDS))

ALL_TILES: tuple[int, ...] = tuple(k for k, kind in enumerate(KINDS) for _ in range(kind.count))
"""The 120 tiles before shuffling, each as its kind's index."""
