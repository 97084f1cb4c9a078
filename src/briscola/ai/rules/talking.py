"""Partner talk for bots (rules.md §4): what to signal, ask or order, and what the
partner's signals, answers and orders mean for one's play.

Signals are true by the rules, so a partner's trump-honour signal places that card
in its hand (see :class:`~briscola.ai.rules.counting.Reading`). Answers to questions are
read from the partner's hand by the engine, so they are true as well; orders bind
nobody, but a good partner follows them when they cost little.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from briscola.engine.actions import Action, Ask, EndTalk, Look, Order, Signal
from briscola.engine.events import Talk
from briscola.engine.views import View

HONOUR_SIGNALS = ("ace", "three", "king", "queen", "jack")


@dataclass(frozen=True)
class PartnerTalk:
    """What my partners have told me, as far as it bears on this trick."""

    order: str | None = None
    """An order a partner gave me for this trick (``carico``, ``liscio``, ...)."""
    request: str | None = None
    """A partner's request signal for this trick (``play-carico``, ``play-liscio``)."""
    no_trumps: bool = False
    """A partner said it holds no trumps (signal, or the answer ``none``; the 7, ace
    and three of trumps are never told, so ``none`` may still hide one of them)."""
    has_trumps: bool = False
    """A partner said it holds trumps (low ones or courts)."""


def partner_talk(view: View, friends: Sequence[int], since: int) -> PartnerTalk:
    """Read my partners' talk. ``since`` is how many talk entries I had seen at my last
    move: orders and requests count only when newer, and made by the partner leading
    this trick or already played to it."""
    me = view.seat
    played = {s for s, _ in view.trick}
    order = request = None
    no_trumps = has_trumps = False
    for i, t in enumerate(view.talk):
        if t.kind == "ask":
            # An answer tells of the partner who gave it, whoever asked (I, or our rais).
            if t.what == "trumps" and t.answer is not None and t.to in friends and t.to != me:
                has_trumps = t.answer != "none"
                no_trumps = t.answer == "none"
            continue
        if t.seat == me or t.seat not in friends:
            continue
        fresh = i >= since and t.seat in played
        if t.kind == "order" and t.to == me and fresh:
            order = t.what
        elif t.kind == "signal":
            if t.what in ("play-carico", "play-liscio") and fresh:
                request = t.what
            elif t.what == "no-trumps":
                no_trumps, has_trumps = True, False
            elif t.what in HONOUR_SIGNALS or t.what == "low-trumps":
                has_trumps, no_trumps = True, False
    return PartnerTalk(order, request, no_trumps, has_trumps)


def said_before(talk: Sequence[Talk], seat: int, kind: str, what: str) -> bool:
    return any(t.seat == seat and t.kind == kind and t.what == what for t in talk)


def choose_signal(
    view: View, legal: Sequence[Action], rng: random.Random, sure_lead: bool
) -> Action | None:
    """A signal worth giving now, or ``None``: my trump honours, the highest first, each
    once a hand, now and then (not always at the first chance, as people do); and the
    request to load when I lead a card nobody can beat."""
    me = view.seat
    assert me is not None
    signals = {a.signal: a for a in legal if isinstance(a, Signal)}
    if sure_lead and not view.trick and "play-carico" in signals:
        return signals["play-carico"]
    for name in HONOUR_SIGNALS:
        if name in signals and not said_before(view.talk, me, "signal", name):
            return signals[name] if rng.random() < 0.5 else None
    return None


def choose_question(
    view: View, legal: Sequence[Action], sure_lead: bool, partners: Sequence[int]
) -> Action | None:
    """Before leading: order a partner to load when my lead cannot be beaten; else ask
    the last partner to play (``partners`` are in playing order) about its trumps,
    every third trick."""
    if sure_lead:
        for a in legal:
            if isinstance(a, Order) and a.order == "carico":
                return a
        return None
    if len(view.tricks) % 3 != 1 or not partners:
        return None
    for a in legal:
        if isinstance(a, Ask) and a.question == "trumps" and a.to == partners[-1]:
            return a
    return None


def choose_before_lead(view: View, legal: Sequence[Action], sure_lead: bool) -> Action:
    """Schembil's talk before the lead, for a rais (rules.md §4.3): look at a partner's
    hand once allowed; then what :func:`choose_question` says, ``sure_lead`` only when I
    lead myself (my partners are taken in the coming trick's playing order, so that the
    one asked about its trumps is the last of them to play); then end the talk."""
    me = view.seat
    assert me is not None
    look = choose_look(view, legal)
    if look is not None:
        return look
    mine = next(side for side in view.sides if me in side)
    partners = [s for s in dict.fromkeys(view.trick_order) if s in mine and s != me]
    leading = bool(view.trick_order) and view.trick_order[0] == me
    said = choose_question(view, legal, sure_lead and leading, partners)
    if said is not None:
        return said
    return next(a for a in legal if isinstance(a, EndTalk))


def choose_look(view: View, legal: Sequence[Action]) -> Action | None:
    """Schembil: the rais looks at the hand of the partner who plays next after it."""
    looks = [a for a in legal if isinstance(a, Look)]
    if not looks:
        return None
    me = view.seat
    assert me is not None
    return min(looks, key=lambda a: (a.at - me) % view.players)
