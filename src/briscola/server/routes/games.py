"""``/api/games`` and the words: every game and house rule, the computer players' levels,
the catalogue of sentences and the game's words in a language (:mod:`briscola.words`),
and a table's rules in plain words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from briscola import __version__
from briscola.catalog import variants_json
from briscola.engine import BriscolaError, RulesError, find_game
from briscola.server.deps import TablesDep, errors
from briscola.server.errors import Refused
from briscola.server.table.bots import LEVELS
from briscola.words.catalogue import catalogue_json
from briscola.words.rules import LanguageError, rules_json, words

router = APIRouter()

Lang = Annotated[str, Query(max_length=8, description="it, en, es or hr")]
TrumpWord = Annotated[
    str | None, Query(max_length=30, description="the family's own word for trump")
]


@router.get("/api/games", tags=["games"])
async def games() -> dict[str, Any]:
    """Every game with its house rules, their choices and defaults (as ``briscola
    variants --json``), the computer players' levels, and the server's version (the card
    pictures' ``?v=``)."""
    return {"games": variants_json(), "levels": list(LEVELS), "version": __version__}


def explained(make: Callable[[], dict[str, Any]], lang: str) -> dict[str, Any]:
    """The words or rules ``make`` gives in ``lang``, a bad language refused, or the house
    rule the engine refused (and its value)."""
    try:
        return make()
    except LanguageError as e:
        raise Refused("bad_language", str(e), values={"lang": lang}) from None
    except RulesError as e:
        rule, value = e.written
        raise Refused("bad_rules", str(e), values={"rule": rule, "value": value}) from None


@router.get("/api/words", tags=["words"], responses=errors(400, 422))
async def game_words(lang: Lang = "en", trump_word: TrumpWord = None) -> dict[str, Any]:
    """The game's words in a language (`it`, `en`, `es`, `hr`; `bad_language` else): the
    cards of each card style, each game's name and summary, each house rule's title,
    explanation and choices, the words for trump, trick, hand, match, points..."""
    return explained(lambda: words(lang, trump_word), lang)


@router.get("/api/catalogue", tags=["words"], responses=errors(400, 422))
async def game_catalogue(lang: Lang = "en") -> dict[str, Any]:
    """Every sentence of the interface in a language (`it`, `en`, `es`, `hr`;
    `bad_language` else), as the terminal says them too: `{"lang": ..., "texts": {key:
    text}}`, a text with `{name}` places, or its forms by plural category (`one`, `few`,
    `other`, as `Intl.PluralRules` names them) or by person (`you`, `other`, ...); the
    English of a key the language lacks filled in."""
    return explained(lambda: catalogue_json(lang), lang)


@router.get("/api/games/{game}/rules-text", tags=["words"], responses=errors(400, 404, 422))
async def game_rules_text(
    game: str, request: Request, lang: Lang = "en", trump_word: TrumpWord = None
) -> dict[str, Any]:
    """The rules of a table of `game` in plain words, its house rules given as query
    parameters (`?match=one-hand&...`, the others at their defaults): `bad_game` (404)
    for a game there is not, `bad_rules` for a rule or value it does not take."""
    try:
        key = find_game(game).key
    except BriscolaError as e:
        raise Refused("bad_game", str(e), 404, values={"game": game}) from None
    given = {k: v for k, v in request.query_params.items() if k not in ("lang", "trump_word")}
    return explained(lambda: rules_json(key, given, lang, trump_word), lang)


@router.get("/api/tables/{token}/rules-text", tags=["words"], responses=errors(400, 404, 422))
async def table_rules_text(
    token: str, tables: TablesDep, lang: Lang = "en", trump_word: TrumpWord = None
) -> dict[str, Any]:
    """The rules of this table, from its own settings, in plain words."""
    rules = (await tables.get(token)).rules
    options = dict(rules.options)
    return explained(lambda: rules_json(rules.key, options, lang, trump_word), lang)
