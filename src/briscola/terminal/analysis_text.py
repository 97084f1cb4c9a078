"""A finished hand's analysis (:mod:`briscola.analysis`, as JSON) in the terminal games'
words: each decision that lost something, trick by trick, with the choices its seat had;
then each seat's points lost, accuracy and costliest cards: what the browser's end screen
and replay show, in the player's language. And a hint (:func:`hint_lines`), as the
browser's hint button says it."""

from __future__ import annotations

from typing import Any

from briscola.analysis.marks import tenths
from briscola.engine.cards import Card
from briscola.words.narrate import describe_action
from briscola.words.seating import Seating

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def num(x: float, lang: str) -> str:
    """``x`` with one decimal (:func:`~briscola.analysis.tenths`), with the language's
    decimal mark."""
    text = tenths(x)
    return text if lang == "en" else text.replace(".", ",")


WHEN = {"auction": "_auction", "before_play": "_before"}
"""The sentences of a decision made at the auction, or in talk before the hand's first
card, by the ending of their keys (``analysis.decision_auction``): not "at trick 1"."""


def action_words(action: dict[str, Any], seating: Seating) -> str:
    if "play" in action:
        return seating.card(Card.parse(action["play"]))
    if "exchange" in action:
        card = seating.card(Card.parse(action["exchange"]))
        return seating.words.say("analysis.exchange", card=card)
    return describe_action(action, seating)  # a talk, a bid or a call


def analysis_lines(body: dict[str, Any], seating: Seating) -> list[str]:
    """The lines of one hand's analysis (``body``: its JSON, docs/records.md)."""
    words = seating.words
    lang = seating.lang
    lines = [words.say("analysis.hand", n=body["hand"] + 1)]
    for d in body["decisions"]:
        if d["label"] not in MARKS:
            continue
        # (at a talk, a bid or a call, saying nothing more: "play" and the card)
        name = describe_action if not {"play", "exchange"} & d["played"].keys() else action_words
        choices = " · ".join(
            f"{name(c['action'], seating)} {num(c['expected_points'], lang)}"
            + (" ★" if c["action"] == d["best"] else "")
            for c in d["choices"]
        )
        lines.append(
            words.say(
                "analysis.decision" + WHEN.get(d.get("when", "play"), ""),
                trick=d["trick"],
                name=seating.name(d["seat"]),
                card=action_words(d["played"], seating) + MARKS[d["label"]],
                label=words.say(f"analysis.label.{d['label']}"),
                lost=num(d["loss"], lang),
            )
            + " · "
            + words.say("analysis.choices", list=choices)
        )
    by_move = {d["move_number"]: d for d in body["decisions"]}
    for s in body["seats"]:
        worst = [by_move[m] for m in s["costliest"]]
        line = words.say(
            "analysis.seat",
            name=seating.name(s["seat"]),
            lost=num(s["total_loss"], lang),
            accuracy=num(s["accuracy"], lang),
        )
        if worst:
            line += " · " + ", ".join(
                words.say(
                    "analysis.costliest" + WHEN.get(d.get("when", "play"), ""),
                    card=action_words(d["played"], seating),
                    trick=d["trick"],
                    lost=num(d["loss"], lang),
                )
                for d in worst
            )
        lines.append(line[:1].upper() + line[1:])
    return lines


def hint_lines(body: dict[str, Any], seating: Seating) -> list[str]:
    """A hint (``{"suggested", "aim", "choices", "exact"}``, as the server's hint route and
    :meth:`briscola.analysis.Hint.to_json` give it) in words, as the browser says it: the
    strong player's choice; what it plays for, with that choice's figures, each named;
    each choice with its figures, the star on the one the first line names. At a table
    that keeps the points hidden during a hand (:attr:`Seating.points_shown`), no figure of
    points: the chance alone, or, where it plays for points, the choices by name."""
    words = seating.words
    lang = seating.lang
    win = body.get("aim", "win") != "points"
    only = "" if seating.points_shown else "_only"

    def said(key: str, c: dict[str, Any], choice: object = None) -> str:
        worth = num(c["expected_points"], lang)
        return words.say(key, chance=c.get("win_percent"), worth=worth, choice=choice)

    suggested = body["suggested"]
    if "exchange" in suggested:
        card = seating.card(Card.parse(suggested["exchange"]))
        lines = [words.say("hint.suggested_exchange", choice=card)]
    else:
        lines = [words.say("hint.suggested", choice=action_words(suggested, seating))]
    its = next((c for c in body["choices"] if c["action"] == suggested), None)
    if its is not None:
        lines.append(said(f"hint.win{only}" if win else f"hint.points{only}", its))
    choices = " · ".join(
        (
            action_words(c["action"], seating)
            if only and not win
            else said(
                f"hint.choice_win{only}" if win else "hint.choice_points",
                c,
                choice=action_words(c["action"], seating),
            )
        )
        + (" ★" if c["action"] == suggested else "")
        for c in body["choices"]
    )
    lines.append(words.say("hint.choices", list=choices))
    return lines
