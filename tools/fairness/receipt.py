"""Reading a stud-receipt-v1 transcript and following its deal (docs/fairness.md,
docs/dealing.md). Standard library only; verify.py adds the signature.

A SERVICE hand takes cards off the deck in position order (0, 1, 2, ...): every
deal, burn and common card in the log draws the next one (STUD-DEAL-1..3,
STUD-DECK-5). A recycle (STUD-DECK-1) gathers the rest of the stub, the burns and
any aside cards and sorts them by the hand's recycle order; the next draws come
from that pile. So the log alone gives the position of every card drawn before
the first recycle, and the log plus the recomputed deck gives every position.
"""

import json
import re

import stud_shuffle as ss

CARD_RE = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs])(?![0-9A-Za-z])")
SEAT_RE = re.compile(r"(?<![a-z_])seat[ =:]*(\d+)", re.IGNORECASE)
CARD_FIELD_RE = re.compile(r"(?<![a-z_])card=([2-9TJQKA][cdhs])(?![0-9A-Za-z])")
KIND_NAMES = {  # every spelling a log line may start with -> the draw it makes
    "deal": "deal", "operation_type_deal": "deal",
    "burn": "burn", "operation_type_burn": "burn",
    "common_card": "common", "operation_type_common_card": "common", "common": "common",
    "recycle": "recycle", "operation_type_recycle": "recycle", "reshuffle": "recycle",
}


class Failure(Exception):
    """A check that did not hold; the message names it."""


def unhex(value, what, size=None):
    if not isinstance(value, str) or re.fullmatch(r"(?:[0-9a-f]{2})*", value) is None:
        raise Failure("%s is not lowercase hex" % what)
    raw = bytes.fromhex(value)
    if size is not None and len(raw) != size:
        raise Failure("%s is %d bytes, not %d" % (what, len(raw), size))
    return raw


def parse_transcript(data):
    try:
        t = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise Failure("transcript is not UTF-8 JSON: %s" % e)
    if not isinstance(t, dict) or t.get("format") != "stud-receipt-v1":
        raise Failure("transcript format is not stud-receipt-v1")
    return t


def log_entry(entry):
    """(kind, seat, card) of one log entry: kind in deal/burn/common/recycle or None,
    card "" when hidden. An entry is a text line or an object with type/seat/card."""
    if isinstance(entry, dict):
        kind = str(entry.get("type", entry.get("kind", ""))).lower()
        return KIND_NAMES.get(kind), int(entry.get("seat", 0) or 0), entry.get("card", "") or ""
    text = str(entry)
    # "<index> <TYPE> seat=N street=S [card=XX] [up] ..." (service/rpc/fairness_view.cc
    # OperationText); a leading index is optional.
    words = [w for w in re.split(r"[\s:,(]+", text.strip(), maxsplit=2)[:2] if w]
    if words and words[0].isdigit():
        words = words[1:]
    kind = KIND_NAMES.get(words[0].split("=")[0].lower()) if words else None
    seat = SEAT_RE.search(text)
    card = CARD_FIELD_RE.search(text)
    cards = [card.group(1)] if card else CARD_RE.findall(text)
    return kind, int(seat.group(1)) if seat else 0, cards[0] if cards else ""


class Deal:
    """The draws of a hand, in log order: (kind, seat, logged card, position or None)."""

    def __init__(self, log, deck=None, recycle_order=None):
        self.draws = []
        self.recycles = 0
        pos = 0  # next stub position
        pile, burns = [], []  # recycled pile (positions), burns since the last recycle
        where = {}
        if deck is not None:
            where = {card: p for p, card in enumerate(deck)}
        for entry in log:
            kind, seat, card = log_entry(entry)
            if kind is None:
                continue
            if kind == "recycle":
                self.recycles += 1
                if deck is None:
                    pos, pile, burns = ss.DECK_SIZE, None, []
                    continue
                rank = {c: i for i, c in enumerate(recycle_order)}
                gathered = list(range(pos, ss.DECK_SIZE)) + (pile or []) + burns
                pile = sorted(gathered, key=lambda p: rank[deck[p]])
                pos, burns = ss.DECK_SIZE, []
                continue
            if pos < ss.DECK_SIZE:
                p = pos
                pos += 1
            elif pile:
                p = pile.pop(0)
            else:
                p = None  # after a recycle without the deck: unknown
                if card and deck is not None:
                    p = where.get(ss.card_index(card))
            if kind == "burn" and p is not None:
                burns.append(p)
            self.draws.append((kind, seat, card, p))

    def seat_positions(self, seat):
        return [p for kind, s, _, p in self.draws if kind == "deal" and s == seat]


def proofs_in(obj):
    """Every card proof (a dict with position, card, salt, path) anywhere in obj."""
    out = []
    if isinstance(obj, dict):
        if {"position", "card", "salt"} <= set(obj) or {"card", "salt", "path"} <= set(obj):
            out.append(obj)
        else:
            for v in obj.values():
                out.extend(proofs_in(v))
    elif isinstance(obj, list):
        for v in obj:
            out.extend(proofs_in(v))
    return out


def field(obj, *names):
    """The first of names (snake_case or the proto JSON camelCase) present in obj."""
    for name in names:
        for key in (name, re.sub(r"_([a-z])", lambda m: m.group(1).upper(), name)):
            if isinstance(obj, dict) and key in obj:
                return obj[key]
    return None


def find(obj, *names):
    """The first value of any of names found anywhere in obj (depth first)."""
    got = field(obj, *names)
    if got is not None:
        return got
    if isinstance(obj, dict):
        obj = list(obj.values())
    if isinstance(obj, list):
        for v in obj:
            got = find(v, *names)
            if got is not None:
                return got
    return None
