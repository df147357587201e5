"""The seeded audit corpus: a controlled, synthetic RAGTruth-format test bed.

`generate_audit_corpus(seed, scale)` builds, fully in memory and deterministically from the
seed, 140 x scale sources (Yelp-style business records, MS MARCO-style question/passages
pairs, CNN/DM- and recent-news-style articles) and six generated responses per source, one
per generator label. Every response sentence restates one fact of one evidence chunk; a
controlled share of responses is corrupted by swapping a fact for an unsupported alternative
(a value that occurs nowhere in the source) or by adding an unsupported clause or sentence.
The gold labels are the exact character spans of those corruptions, and `sentence_meta`
records for every sentence its offsets, its gold evidence chunk (as produced by
`evidencechain.text.chunks.build_evidence`) and whether it is supported.

`write_audit_corpus` writes `response.jsonl`, `source_info.jsonl` and a `README.md` with the
corpus statistics (`evidencechain.data.stats`).

How it works, in brief:
  * a *draft* of a source holds the Source record and its *facts*; a fact is an evidence
    sentence (its `anchor`, found verbatim in exactly one chunk) plus response *frames* that
    restate it, with the fact's values held in typed *slots*;
  * a response renders 2-5 facts through frames chosen per generator label;
  * a corruption replaces one slot value by an alternative of the same kind that the source
    never mentions (Conflict), or appends/inserts a clause or sentence the source does not
    support (Baseless Info).
All randomness flows from `random.Random` instances seeded by strings derived from `seed`.
"""
from __future__ import annotations

import json
import math
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..io import atomic_write_text
from ..text.chunks import build_evidence
from . import audit_vocab as V
from .ragtruth import write_ragtruth
from .records import Corpus, Label, Response, SentenceGold, Source

MODELS = (
    "gpt-3.5-turbo-0613", "gpt-4-0613", "llama-2-7b-chat", "llama-2-13b-chat",
    "llama-2-70b-chat", "mistral-7B-instruct",
)
MODEL_RATES = {  # target share of responses with at least one hallucinated span
    "gpt-4-0613": 0.11, "gpt-3.5-turbo-0613": 0.15, "llama-2-70b-chat": 0.46,
    "llama-2-13b-chat": 0.49, "mistral-7B-instruct": 0.53, "llama-2-7b-chat": 0.64,
}
TASK_RATES = {"Data2txt": 0.65, "QA": 0.23, "Summary": 0.28}
TEMPERATURES = (0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0)
TWO_SPAN_PROB = 0.2


@dataclass(frozen=True)
class TaskPlan:
    task_type: str
    source: str
    prefix: str
    sources: int
    test: int


TASK_PLAN = (
    TaskPlan("Data2txt", "Yelp", "yelp", 50, 15),
    TaskPlan("QA", "MARCO", "marco", 45, 13),
    TaskPlan("Summary", "CNN/DM", "cnndm", 30, 9),
    TaskPlan("Summary", "Recent News", "news", 15, 5),
)

LABEL_KINDS = ("Evident Conflict", "Subtle Conflict", "Evident Baseless Info", "Subtle Baseless Info")


# ------------------------------------------------------------------------------------------
# Slots, facts and drafts
# ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Slot:
    """One value of a fact. `kind` decides how an unsupported alternative is proposed."""

    value: str
    kind: str = "fixed"
    corrupt: bool = True
    pool: tuple[str, ...] = ()
    verbatim: bool = True
    """True when the value appears literally in the gold chunk (checked at build time)."""


def S(value, kind: str = "fixed", *, corrupt: bool | None = None, pool=(), verbatim: bool = True) -> Slot:
    """A slot; kind "fixed" (plain words) and "name" (a proper name) are never corrupted."""
    if corrupt is None:
        corrupt = kind not in ("fixed", "name")
    return Slot(str(value), kind, corrupt, tuple(pool), verbatim)


@dataclass
class Fact:
    anchor: str
    frames: tuple[str, ...]
    slots: dict[str, Slot]
    chunk: int = -1


@dataclass(frozen=True)
class Spec:
    """An evidence sentence: text variants, and the response frames that restate it."""

    variants: tuple[str, ...]
    frames: tuple[str, ...] = ()


def spec(*variants: str, frames: tuple[str, ...] | list[str] = ()) -> Spec:
    return Spec(tuple(variants), tuple(frames))


@dataclass
class Draft:
    source: Source
    lead: list[Fact]
    body: list[Fact]
    sentences: tuple[int, int]
    noun: str
    years: tuple[int, int]
    optional: list[Fact] = field(default_factory=list)
    clauses: tuple[tuple[str, str], ...] = ()
    """Baseless clauses specific to this source, used besides the task's generic ones."""
    extra_sentences: tuple[str, ...] = ()
    """Facts a response mentions only sometimes (QA: a comparison with a distractor)."""
    hay: str = ""
    features: tuple[tuple[str, tuple[str, ...], str], ...] = ()


_FMT = string.Formatter()


def _fields(template: str) -> list[str]:
    return [f for _, f, _, _ in _FMT.parse(template) if f is not None]


def _plain(template: str, slots: dict[str, Slot]) -> str:
    out = []
    for literal, name, _, conv in _FMT.parse(template):
        out.append(literal)
        if name is not None:
            value = slots[name].value
            out.append(value[:1].upper() + value[1:] if conv == "c" else value)
    return "".join(out)


def realise(rng: random.Random, specs: list[Spec], slots: dict[str, Slot]) -> list[tuple[str, Fact | None]]:
    """Render evidence sentences; facts carry the slots their frames use."""
    out = []
    for sp in specs:
        text = _plain(rng.choice(sp.variants), slots)
        fact = None
        if sp.frames:
            names = {n for fr in sp.frames for n in _fields(fr)}
            fact = Fact(text, sp.frames, {n: slots[n] for n in sorted(names)})
        out.append((text, fact))
    return out


# ------------------------------------------------------------------------------------------
# Small value helpers
# ------------------------------------------------------------------------------------------

def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" and not noun.startswith("HVAC") else "a ") + noun


def _num(x: float) -> str:
    return f"{int(round(x)):,}"


def _money(x: float) -> str:
    return f"${int(round(x)):,}"


def _jit(rng: random.Random, base: float, rel: float = 0.15, step: float = 1) -> float:
    value = base * rng.uniform(1 - rel, 1 + rel)
    value = round(value / step) * step
    return max(step, value)


def _person(rng: random.Random) -> str:
    return f"{rng.choice(V.FIRST_NAMES)} {rng.choice(V.LAST_NAMES)}"


def _people(rng: random.Random, n: int) -> list[str]:
    firsts = rng.sample(V.FIRST_NAMES, n)
    lasts = rng.sample(V.LAST_NAMES, n)
    return [f"{a} {b}" for a, b in zip(firsts, lasts)]


def _town(rng: random.Random) -> str:
    return rng.choice(V.TOWN_PREFIXES) + rng.choice(V.TOWN_SUFFIXES)


def _company(rng: random.Random) -> str:
    return f"{rng.choice(V.ORG_WORDS_A)} {rng.choice(V.ORG_WORDS_B)}"


def _companies(rng: random.Random, n: int) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        c = _company(rng)
        if c.split()[0] not in {x.split()[0] for x in out}:
            out.append(c)
    return out


def _title(rng: random.Random) -> str:
    a, b = rng.choice(V.TITLE_WORDS_A), rng.choice(V.TITLE_WORDS_B)
    return rng.choice((f"The {a} {b}", f"{a} {b}", f"A {a} {b}"))


def _clock(hour: int, minute: int, style: str) -> str:
    suffix = "am" if hour < 12 else "pm"
    h12 = hour % 12 or 12
    if style == "upper":
        return f"{h12}:{minute:02d} {suffix.upper()}"
    return f"{h12} {suffix}" if minute == 0 else f"{h12}:{minute:02d} {suffix}"


def _pct(x: float, decimals: int = 0) -> str:
    return f"{x:.{decimals}f} percent"


def _absent(text: str, hay: str) -> bool:
    low = text.lower().strip()
    if not low or low in hay:
        return False
    core = re.sub(r"[^0-9.]", "", low)
    if len(re.sub(r"\D", "", core)) >= 2 and core.strip(".") and core.strip(".") in hay.replace(",", ""):
        return False
    return True


def _content_words_absent(text: str, hay: str) -> bool:
    """Every capitalised word or number of a generated phrase is absent from the source."""
    for word in re.findall(r"[A-Z][a-z]+|\d[\d,.]*\d|\d", text):
        if len(word) >= 2 and word.lower() in hay:
            return False
    return True


# ------------------------------------------------------------------------------------------
# Alternatives for slots
# ------------------------------------------------------------------------------------------

_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_NUMERIC_KINDS = {"money", "count", "percent", "number", "measure"}


def _perturb_number(value: str, rng: random.Random) -> tuple[str, float] | None:
    m = _NUMBER.search(value)
    if m is None:
        return None
    raw = m.group(0)
    has_comma = "," in raw
    digits = raw.replace(",", "")
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    old = float(digits)
    if decimals == 0 and old < 20:
        new = old + rng.choice((-3, -2, -1, 1, 2, 3, 4, 5))
        if new <= 0:
            new = old + rng.randint(1, 5)
    else:
        factor = rng.choice((0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 1.1, 1.15, 1.2, 1.3, 1.4, 1.6, 1.8, 2.0))
        new = old * factor
        if decimals == 0:
            ipart = str(int(old))
            tz = len(ipart) - len(ipart.rstrip("0"))
            step = 10 ** max(0, min(tz, len(ipart) - 2))
            new = round(new / step) * step
            if new == old:
                new = old + step
        else:
            new = round(new, decimals)
            if new == old:
                new = old + 10 ** -decimals
    if decimals:
        text = f"{new:,.{decimals}f}" if has_comma else f"{new:.{decimals}f}"
    else:
        text = f"{int(new):,}" if has_comma or (new >= 10000 and old >= 10000) else str(int(new))
    rel = abs(new - old) / max(abs(old), 1e-9)
    return value[:m.start()] + text + value[m.end():], rel


def _perturb_time(value: str, rng: random.Random) -> str | None:
    m = re.match(r"(\d{1,2})(?::(\d{2}))?\s?([ap]m|[AP]M)$", value)
    if m is None:
        return None
    h = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "pm" else 0)
    minute = int(m.group(2) or 0)
    new = h + rng.choice((-3, -2, -1, 1, 2, 3))
    if not 5 <= new <= 23:
        new = h + rng.choice((1, 2)) if h < 12 else h - rng.choice((1, 2))
    style = "upper" if m.group(3).isupper() else "lower"
    return _clock(new, minute, style)


def _propose(slot: Slot, rng: random.Random) -> tuple[str, str] | None:
    """One candidate (alternative, label_type) for a slot, or None."""
    kind, value = slot.kind, slot.value
    if kind in _NUMERIC_KINDS:
        out = _perturb_number(value, rng)
        if out is None:
            return None
        alt, rel = out
        return alt, "Subtle Conflict" if rel <= 0.2 else "Evident Conflict"
    if kind == "year":
        delta = rng.choice((-12, -8, -5, -3, -2, -1, 1, 2, 3, 5, 8))
        return str(int(value) + delta), "Subtle Conflict" if abs(delta) <= 2 else "Evident Conflict"
    if kind == "rating":
        choices = [x / 2 for x in range(2, 11) if x / 2 != float(value)]
        new = rng.choice(choices)
        fmt = f"{new:.1f}" if "." in value else f"{new:g}"
        if "." not in value and new != int(new):
            fmt = f"{new:.1f}"
        return fmt, "Subtle Conflict" if abs(new - float(value)) <= 0.5 else "Evident Conflict"
    if kind == "time":
        alt = _perturb_time(value, rng)
        return (alt, "Subtle Conflict") if alt else None
    if kind == "day":
        return rng.choice([d for d in V.WEEKDAYS if d != value]), "Subtle Conflict"
    if kind == "month":
        return rng.choice([m for m in V.MONTHS if m != value]), "Subtle Conflict"
    if kind == "date":
        month, day = value.split()
        if rng.random() < 0.5:
            return f"{rng.choice([m for m in V.MONTHS if m != month])} {day}", "Subtle Conflict"
        new = int(day) + rng.choice((-9, -6, -3, -2, 2, 3, 6, 9))
        return (f"{month} {new}", "Subtle Conflict") if 1 <= new <= 28 else None
    if kind == "person":
        parts = value.split()
        return (_person(rng) if len(parts) >= 2 else rng.choice(V.LAST_NAMES)), "Evident Conflict"
    if kind == "first":
        return rng.choice(V.FIRST_NAMES), "Evident Conflict"
    if kind == "last":
        return rng.choice(V.LAST_NAMES), "Evident Conflict"
    if kind == "city":
        pool = V.YELP_CITIES if rng.random() < 0.5 else V.US_CITIES
        return rng.choice(pool)[0], "Evident Conflict"
    if kind == "state":
        if len(value) == 2:
            return rng.choice(sorted(V.STATE_NAMES)), "Evident Conflict"
        return rng.choice(sorted(v for v in V.STATE_NAMES.values() if v != "Alberta")), "Evident Conflict"
    if kind == "town":
        return _town(rng), "Evident Conflict"
    if kind == "county":
        return rng.choice(V.COUNTY_NAMES), "Evident Conflict"
    if kind == "address":
        m = re.match(r"(\d+) (.*)", value)
        if m is None:
            return None
        return f"{rng.randint(10, 9899)} {m.group(2)}", "Subtle Conflict"
    if kind == "vote":
        yes, no = (int(x) for x in value.split("-"))
        total = yes + no
        new = rng.choice([y for y in range(total // 2 + 1, total + 1) if y != yes] or [yes + 1])
        return f"{new}-{total - new}", "Subtle Conflict"
    if kind == "score":
        a, b = (int(x) for x in value.split("-"))
        if rng.random() < 0.5:
            a += rng.choice((-9, -6, -4, 3, 5, 8, 11))
        else:
            b += rng.choice((-8, -5, -3, 2, 4, 7))
        return (f"{a}-{b}", "Evident Conflict") if a > b > 0 else None
    if kind == "phone":
        digits = [c for c in value]
        idx = [i for i, c in enumerate(digits) if c.isdigit()][-4:]
        for i in idx:
            digits[i] = str(rng.randint(0, 9))
        return "".join(digits), "Subtle Conflict"
    if kind == "word_number":
        return rng.choice([w for w in V.NUMBER_WORDS[1:11] if w != value]), "Subtle Conflict"
    if kind in ("choice", "item", "org", "title"):
        pool = [p for p in slot.pool if p != value]
        if not pool:
            return None
        typ = "Evident Conflict" if kind in ("org", "title") else "Subtle Conflict"
        return rng.choice(pool), typ
    return None


def _alternative(slot: Slot, rng: random.Random, hay: str, avoid: set[str]) -> tuple[str, str] | None:
    for _ in range(60):
        got = _propose(slot, rng)
        if got is None:
            continue
        alt, typ = got
        if alt == slot.value or alt.lower() in avoid:
            continue
        if _absent(alt, hay) and _content_words_absent(alt, hay):
            return alt, typ
    return None


# ------------------------------------------------------------------------------------------
# Data2txt: Yelp-style business records
# ------------------------------------------------------------------------------------------

_DAYS = V.WEEKDAYS


def _business_name(rng: random.Random, prof: dict) -> str:
    pattern = rng.choice(prof["names"])
    lasts = rng.sample(V.LAST_NAMES, 2)
    fill = dict(
        last=lasts[0], last2=lasts[1], first=rng.choice(V.FIRST_NAMES),
        street=rng.choice(V.STREET_NAMES), adj=rng.choice(V.NAME_ADJ),
        animal=rng.choice(V.NAME_ANIMAL), place=rng.choice(V.NAME_PLACE),
        spanish=rng.choice(V.NAME_SPANISH), japanese=rng.choice(V.NAME_JAPANESE),
        french=rng.choice(V.NAME_FRENCH), italian=rng.choice(V.NAME_ITALIAN),
        asian=rng.choice(V.NAME_ASIAN),
    )
    return pattern.format(**fill)


def _postal(rng: random.Random, state: str) -> str:
    if state == "AB":
        letter = rng.choice("ABCEGHJKLMNPRSTVWXYZ")
        return f"{rng.choice(V.ALBERTA_POSTAL)} {rng.randint(0, 9)}{letter}{rng.randint(0, 9)}"
    return rng.choice(V.ZIP_PREFIX[state]) + f"{rng.randint(0, 99):02d}"


def _hours(rng: random.Random, prof: dict) -> tuple[dict[str, str], list[tuple[str, tuple, tuple]]]:
    """Yelp hours dict and runs of days: (first day, last day), (open h, m), (close h, m)."""
    o = rng.randint(*prof["open"])
    c = rng.randint(*prof["close"])
    om = rng.choice((0, 0, 0, 30))
    cm = rng.choice((0, 0, 0, 30)) if c < 23 else 0
    yelp_style = rng.random() < 0.6

    def fmt(h: int, m: int) -> str:
        return f"{h}:{m}" if yelp_style else f"{h}:{m:02d}"

    closed_monday = rng.random() < 0.15
    weekdays = [d for d in _DAYS[:5] if not (closed_monday and d == "Monday")]
    hours = {d: f"{fmt(o, om)}-{fmt(c, cm)}" for d in weekdays}
    runs = [((weekdays[0], weekdays[-1]), (o, om), (c, cm))]
    if rng.random() < 0.85:
        so = min(o + rng.choice((0, 0, 1, 2)), 12)
        sc = min(c + rng.choice((0, 0, 1, -1, -2)), 23)
        sc = max(sc, so + 4)
        hours["Saturday"] = f"{fmt(so, om)}-{fmt(sc, cm if sc < 23 else 0)}"
        runs.append((("Saturday", "Saturday"), (so, om), (sc, cm if sc < 23 else 0)))
        if rng.random() < 0.6:
            uo, uc = min(so + rng.choice((0, 1, 2)), 13), max(sc - rng.choice((0, 1, 2, 3)), so + 4)
            hours["Sunday"] = f"{fmt(uo, om)}-{fmt(uc, 0)}"
            runs.append((("Sunday", "Sunday"), (uo, om), (uc, 0)))
    return hours, runs


def _attributes(rng: random.Random, prof: dict) -> tuple[dict, list[tuple[str, str]], dict[str, str]]:
    """Yelp attributes, the offered features as (phrase, key), and descriptive words."""
    kind = prof["kind"]
    table = {"food": V.FOOD_ATTRIBUTES, "service": V.SERVICE_ATTRIBUTES, "shop": V.SHOP_ATTRIBUTES}[kind]
    chosen = rng.sample(table, rng.randint(min(4, len(table)), len(table)))
    items: list[tuple[str, object]] = []
    features: list[tuple[str, str]] = []
    described: dict[str, str] = {}
    for key, values, phrase in chosen:
        value = rng.choice(values)
        items.append((key, value))
        if value == "True" and phrase:
            features.append((phrase, key))
    if kind == "food" or rng.random() < 0.4:
        wifi, phrase = rng.choice(V.WIFI_VALUES)
        items.append(("WiFi", wifi))
        if phrase:
            features.append((phrase, "WiFi"))
    if kind == "food":
        if rng.random() < 0.8:
            alcohol, phrase = rng.choice(V.ALCOHOL_VALUES)
            items.append(("Alcohol", alcohol))
            if phrase:
                features.append((phrase, "Alcohol"))
        noise, word = rng.choice(V.NOISE_VALUES)
        items.append(("NoiseLevel", noise))
        described["noise"] = word
        attire, word = rng.choice(V.ATTIRE_VALUES)
        items.append(("RestaurantsAttire", attire))
        described["attire"] = word
    if rng.random() < 0.85:
        level = rng.choice(("1", "2", "2", "2", "3", "4") if kind == "food" else ("1", "2", "2", "3"))
        items.append(("RestaurantsPriceRange2", level))
        described["price"] = V.PRICE_WORDS[level]
    if kind == "food" and rng.random() < 0.3:
        music = {k: rng.random() < 0.35 for k in V.MUSIC_KINDS}
        items.append(("Music", music))
        features.extend((V.MUSIC_KINDS[k], "Music") for k, v in music.items() if v)
    if rng.random() < 0.8:
        parking = {k: False for k in V.PARKING_KINDS}
        for k in rng.sample(("street", "lot", "lot", "garage", "validated"), rng.randint(1, 2)):
            parking[k] = True
        items.append(("BusinessParking", parking))
        features.extend((V.PARKING_PHRASES[k], "BusinessParking") for k, v in parking.items() if v)
    rng.shuffle(items)
    return dict(items), features, described


REVIEW_FACT_FRAMES = {
    "item_praise": ("One reviewer described the {item} as {adj_pos}",
                    "A customer said the {item} {be} {adj_pos}",
                    "Reviewers liked the {item}, with one calling {it} {adj_pos}",
                    "In a review from {rmonth} {ryear}, a customer called the {item} {adj_pos}"),
    "staff": ("One customer praised {staff}, the {role}, for attentive service",
              "A reviewer singled out {staff} for excellent service",
              "{staff}, the {role}, earned praise in one review"),
    "visit_food": ("One customer who came for {occasion} ordered the {item}",
                   "A reviewer visited for {occasion} and tried the {item}"),
    "visit_service": ("One reviewer came in for {occasion} and had {staff} handle the {item}",
                      "For {occasion}, one customer had {staff} take care of the {item}"),
    "visit_shop": ("One shopper stopped in for {occasion} and picked out the {item} with help from {staff}",
                   "For {occasion}, a customer chose the {item} with the help of {staff}"),
    "wait": ("One reviewer reported waiting about {minutes} minutes",
             "A customer mentioned a wait of {minutes} minutes on a {weekday}",
             "Service can be slow, with one visitor waiting {minutes} minutes",
             "In {rmonth} {ryear}, one customer waited {minutes} minutes"),
    "price": ("One reviewer noted that the {item} {costs} {price}",
              "According to one review, the {item} {is_} priced at {price}",
              "A customer paid {price} for the {item}"),
    "complaint": ("One customer felt the {item2} {be2} {adj_neg}",
                  "A less satisfied reviewer said the {item2} {be2} {adj_neg}",
                  "One review noted that the {item2} {be2} {adj_neg}"),
    "regular": ("One regular has been coming back for the {item} for years",
                "A longtime customer keeps returning for the {item}"),
    "staff_rec": ("{staff} recommended the {item} to one reviewer",
                  "One reviewer tried the {item} on the recommendation of {staff}",
                  "On the advice of {staff}, a customer tried the {item}"),
}
_PARAPHRASED_REVIEW_SLOTS = {"rmonth", "noun"}


def _plural(noun: str) -> bool:
    last = noun.split()[-1]
    return last.endswith("s") and not last.endswith(("ss", "us")) and last not in ("gyros",)


def _review(rng: random.Random, prof: dict, template: dict, noun: str, staff_names: list[str]
            ) -> tuple[dict, list[Fact]]:
    kind = prof["kind"]
    items = rng.sample(prof["items"], 2)
    lo, hi = template["stars"]
    stars = float(rng.randint(lo, hi))
    year = rng.randint(2012, 2021)
    month = rng.randint(1, 12)
    date = f"{year}-{month:02d}-{rng.randint(1, 28):02d}"
    if rng.random() < 0.5:
        date += f" {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"
    base_price = {"food": (6, 32), "service": (25, 240), "shop": (8, 90)}[kind]
    price = rng.randint(*base_price)
    price_text = f"${price}" if rng.random() < 0.7 or kind != "food" else f"${price}.{rng.choice((49, 50, 95, 99))}"
    other_items = tuple(i for i in prof["items"] if i not in items)
    staff = staff_names.pop()
    values = dict(
        item=S(items[0], "item", pool=other_items), item2=S(items[1], "item", pool=other_items),
        adj_pos=S(rng.choice(V.POSITIVE_ADJ[kind]), corrupt=False),
        adj_neg=S(rng.choice(V.NEGATIVE_ADJ[kind]), corrupt=False),
        staff=S(staff, "first"), role=S(rng.choice(prof["roles"]), corrupt=False),
        occasion=S(rng.choice(prof["occasions"]), corrupt=False),
        minutes=S(rng.choice((10, 15, 20, 25, 30, 35, 40, 45, 50, 60, 75, 90)), "count"),
        price=S(price_text, "money"), weekday=S(rng.choice(_DAYS), "day"),
        noun=S(noun, verbatim=False), rmonth=S(V.MONTHS[month - 1], "month", verbatim=False),
        ryear=S(year, "year"),
        be=S("were" if _plural(items[0]) else "was", verbatim=False),
        be2=S("were" if _plural(items[1]) else "was", verbatim=False),
        is_=S("are" if _plural(items[0]) else "is", verbatim=False),
        costs=S("cost" if _plural(items[0]) else "costs", verbatim=False),
        it=S("them" if _plural(items[0]) else "it", verbatim=False),
        they=S("they" if _plural(items[0]) else "it", verbatim=False),
        It_be=S("They were" if _plural(items[0]) else "It was", verbatim=False),
    )
    text = _plain(template["text"], values)
    review = {"review_stars": stars, "review_date": date, "review_text": text}
    available = set(_fields(template["text"])) | {"rmonth", "ryear", "noun", "be", "be2", "is_", "costs", "it"}
    facts = []
    for fact_type in template["facts"]:
        key = f"visit_{kind}" if fact_type == "visit" else fact_type
        frames = tuple(f for f in REVIEW_FACT_FRAMES[key] if set(_fields(f)) <= available)
        if not frames:
            continue
        names = sorted({n for f in frames for n in _fields(f)})
        facts.append(Fact(text[:60], frames, {n: values[n] for n in names}))
    return review, facts


def _yelp_draft(rng: random.Random, sid: str) -> Draft:
    prof = rng.choice(V.BUSINESS_PROFILES)
    noun = rng.choice(prof["nouns"])
    city, state = rng.choice(V.YELP_CITIES)
    name = _business_name(rng, prof)
    address = f"{rng.randint(12, 9899)} {rng.choice(V.STREET_NAMES)} {rng.choice(V.STREET_SUFFIXES)}"
    stars = rng.choice((2.0, 2.5, 3.0, 3.0, 3.5, 3.5, 3.5, 4.0, 4.0, 4.0, 4.5, 4.5, 5.0))
    count = int(round(math.exp(rng.uniform(math.log(6), math.log(1500)))))
    hours, runs = _hours(rng, prof)
    attributes, features, described = _attributes(rng, prof)
    staff = rng.sample(V.FIRST_NAMES, 5)
    reviews, review_facts = [], []
    for template in rng.sample(V.REVIEW_TEMPLATES[prof["kind"]], rng.choice((2, 3, 3, 4))):
        review, facts = _review(rng, prof, template, noun, staff)
        reviews.append(review)
        review_facts.extend(facts)
    record = {
        "name": name, "address": address, "city": city, "state": state,
        "postal_code": _postal(rng, state), "business_stars": stars, "review_count": count,
        "is_open": 1 if rng.random() < 0.9 else 0, "categories": rng.choice(prof["categories"]),
        "hours": hours, "attributes": attributes, "review_info": reviews,
    }
    base = dict(name=S(name, "name"), noun=S(noun, verbatim=False), city=S(city, "city"),
                state=S(state, "state"), address=S(address, "address"),
                stars=S(f"{stars:.1f}", "rating"), count=S(count, "count"),
                categories=S(record["categories"]))
    intro = Fact(f"address: {address}", (
        "{name} is {a_noun} located at {address} in {city}, {state}",
        "Located at {address} in {city}, {name} is {a_noun}",
        "{name} is {a_noun} at {address} in {city}, {state}",
        "{name}, {a_noun} at {address}, is located in {city}, {state}",
    ), {**{k: base[k] for k in ("name", "address", "city", "state")},
        "a_noun": S(_a(noun), verbatim=False)})
    rating = Fact(f"business stars: {stars}", (
        "{name} has an average rating of {stars} stars based on {count} reviews",
        "It holds an overall rating of {stars} stars from {count} customer reviews",
        "The {noun} is rated {stars} out of 5 stars across {count} reviews",
        "With {count} reviews, it has earned an average of {stars} stars",
    ), {k: base[k] for k in ("name", "stars", "count", "noun")})
    body: list[Fact] = [rating]
    style = "upper" if rng.random() < 0.3 else "lower"
    for (first, last), (oh, om), (ch, cm) in runs:
        slots = dict(open=S(_clock(oh, om, style), "time", verbatim=False),
                     close=S(_clock(ch, cm, style), "time", verbatim=False),
                     first=S(first), last=S(last), noun=base["noun"])
        if first != last:
            frames = ("It is open from {open} to {close}, {first} through {last}",
                      "From {first} through {last}, the {noun} opens at {open} and closes at {close}",
                      "{first} through {last}, hours run from {open} to {close}")
        else:
            frames = ("On {first}, it is open from {open} to {close}",
                      "{first} hours are {open} to {close}",
                      "On {first} the {noun} opens at {open} and closes at {close}")
        body.append(Fact(f"{first} {hours[first]}", frames, slots))
    rng.shuffle(features)
    if len(features) >= 2:
        k = min(len(features), rng.choice((2, 3, 3)))
        slots = {f"f{i + 1}": S(features[i][0], "feature", verbatim=False) for i in range(k)}
        slots.update(name=S(name, "name", verbatim=False), noun=base["noun"])
        if k == 3:
            frames = ("{name} offers {f1}, {f2}, and {f3}",
                      "Amenities include {f1}, {f2}, and {f3}",
                      "The {noun} provides {f1}, {f2}, and {f3}")
        else:
            frames = ("{name} offers {f1} and {f2}",
                      "Guests can expect {f1} and {f2}",
                      "The {noun} provides {f1} as well as {f2}")
        body.append(Fact("Attributes: ", frames, slots))
    if "noise" in described and "price" in described:
        levels = ("quiet", "average", "loud", "very loud")
        prices = tuple(V.PRICE_WORDS.values())
        slots = dict(noise=S(described["noise"], "choice", pool=levels, verbatim=False),
                     attire=S(described["attire"], "choice", pool=("casual", "dressy", "formal"),
                              verbatim=False),
                     price=S(described["price"], "choice", pool=prices, verbatim=False),
                     noun=base["noun"])
        body.append(Fact("Attributes: ", (
            "The {noun} is {price}, with {attire} attire and a noise level described as {noise}",
            "It is considered {price} and has a {attire} dress code with {noise} noise levels",
        ), slots))
    body.extend(review_facts)
    years = (1968, 2016)
    prompt = ("Instruction:\nWrite an objective overview about the following local business "
              "based only on the provided structured data in the JSON format. You should include "
              "details and cover the information mentioned in the customers' review. The overview "
              "should be 100 - 200 words. Don't make up information.\nStructured data:\n"
              f"{json.dumps(record, ensure_ascii=False)}\nOverview:")
    source = Source(sid, "Data2txt", "Yelp", record, prompt)
    feature_pool = _feature_pool(prof, attributes)
    return Draft(source, [intro], body, (3, 4), noun, years, features=feature_pool)


def _feature_pool(prof: dict, attributes: dict) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    table = {"food": V.FOOD_ATTRIBUTES, "service": V.SERVICE_ATTRIBUTES, "shop": V.SHOP_ATTRIBUTES}
    pool: list[tuple[str, tuple[str, ...], str]] = []
    for key, _, phrase in table[prof["kind"]]:
        if phrase and key not in attributes:
            words = tuple(w for w in re.findall(r"[a-z]+", phrase.lower()) if len(w) > 4)
            pool.append((phrase, (key.lower(),) + words, "Subtle Baseless Info"))
    for phrase, keys in V.EXTRA_FEATURES:
        if all(phrase != p for p, _, _ in pool):
            pool.append((phrase, keys, "Evident Baseless Info"))
    return tuple(pool)


# ------------------------------------------------------------------------------------------
# QA: MS MARCO-style question and three passages
# ------------------------------------------------------------------------------------------

@dataclass
class QASpec:
    questions: tuple[str, ...]
    answer: list[Spec]
    answer_slots: dict[str, Slot]
    distractor: Callable[[random.Random], tuple[list[Spec], dict[str, Slot]]]
    fillers: tuple[str, ...]
    compare: tuple[str, ...] = ()


def _states(rng: random.Random, n: int) -> list[str]:
    return rng.sample(sorted(v for k, v in V.STATE_NAMES.items() if k != "AB"), n)


def _qa_salary(rng: random.Random) -> QASpec:
    job, jobs, base = rng.choice(V.JOBS)
    states = _states(rng, 3)

    def slots(state: str) -> dict[str, Slot]:
        sal = _jit(rng, base, 0.2, 10)
        return dict(job=S(job), jobs=S(jobs, verbatim=False), a_job=S(_a(job), verbatim=False), state=S(state, "state"),
                    salary=S(_money(sal), "money"),
                    low=S(_money(_jit(rng, sal * 0.65, 0.08, 100)), "money"),
                    high=S(_money(_jit(rng, sal * 1.5, 0.1, 100)), "money"),
                    source=S(rng.choice(V.SALARY_SOURCES), "choice", pool=V.SALARY_SOURCES),
                    count=S(_num(_jit(rng, rng.randint(2000, 90000), 0.1, 10)), "count"))

    main = [
        spec("{jobs!c} in {state} earn an average annual salary of {salary}, according to {source}.",
             "According to {source}, the average {job} salary in {state} is {salary} per year.",
             frames=("The average salary for {a_job} in {state} is {salary} per year",
                     "{jobs!c} in {state} earn an average of {salary} annually",
                     "In {state}, {jobs} make about {salary} a year on average",
                     "According to {source}, {jobs} in {state} earn {salary} per year")),
        spec("Entry-level {jobs} typically start at around {low}, while the top 10 percent earn more than {high}.",
             frames=("Entry-level {jobs} start at around {low}, while top earners make more than {high}",
                     "Pay ranges from about {low} for new {jobs} to over {high} for the most experienced",
                     "Salaries start near {low} for entry-level {jobs} and can exceed {high}")),
        spec("{state} employs roughly {count} {jobs}.",
             "There are roughly {count} {jobs} employed in {state}.",
             frames=("There are roughly {count} {jobs} working in {state}",
                     "{state} employs about {count} {jobs}")),
    ]
    s0 = slots(states[0])
    others = iter(states[1:])

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:2], slots(next(others))

    q = [f"average salary of {_a(job)} in {states[0]}", f"how much does {_a(job)} make in {states[0]}",
         f"{job} salary {states[0].lower()}", f"what is the average pay for {jobs} in {states[0]}"]
    fillers = ("Pay varies with experience, certification and the type of employer.",
               "Overtime and shift differentials can add significantly to base pay.",
               f"Employment of {jobs} is projected to grow faster than average over the next decade.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("By comparison, {jobs} in {state} earn an average of {salary}",
                           "For comparison, the average in {state} is {salary}"))


def _qa_county(rng: random.Random) -> QASpec:
    towns = []
    while len(towns) < 3:
        t = _town(rng)
        if t not in towns:
            towns.append(t)
    states = _states(rng, 3)
    counties = rng.sample(V.COUNTY_NAMES, 3)
    it = iter(range(1, 3))

    def slots(i: int) -> dict[str, Slot]:
        return dict(town=S(towns[i], "town"), county=S(counties[i], "county"),
                    state=S(states[i], "state"),
                    pop=S(_num(_jit(rng, rng.choice((4000, 12000, 38000, 95000)), 0.4, 1)), "count"),
                    year=S(rng.choice((2010, 2020)), "year", corrupt=False),
                    seat=S(_town(rng), "town"), miles=S(rng.randint(8, 70), "count"))

    main = [
        spec("{town} is a city in {county} County, {state}, United States.",
             "{town} is a small city located in {county} County in the state of {state}.",
             frames=("{town} is located in {county} County, {state}",
                     "{town} is a city in {county} County in {state}",
                     "The city of {town} lies in {county} County, {state}")),
        spec("The population was {pop} at the {year} census.",
             "As of the {year} census, the city had a population of {pop}.",
             frames=("It had a population of {pop} at the {year} census",
                     "As of the {year} census, {pop} people lived there")),
        spec("The county seat, {seat}, is about {miles} miles to the north.",
             frames=("The county seat is {seat}, roughly {miles} miles away",)),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:2], slots(next(it))

    s0 = slots(0)
    q = [f"what county is {towns[0]} {states[0]} in", f"{towns[0]} {states[0].lower()} county",
         f"which county is {towns[0]} in"]
    fillers = ("The city was incorporated in the late nineteenth century.",
               "Agriculture and light manufacturing remain important to the local economy.",
               "The city is served by a regional airport and two state highways.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("A different city, {town}, is in {county} County, {state}",))


def _qa_calories(rng: random.Random) -> QASpec:
    picks = rng.sample(V.FOODS, 3)
    it = iter(picks[1:])

    def slots(food) -> dict[str, Slot]:
        serving, name, cal, carbs, protein = food
        return dict(serving=S(serving), food=S(name),
                    cal=S(int(_jit(rng, cal, 0.08, 1)), "count"),
                    carbs=S(f"{max(1, round(_jit(rng, carbs + 1, 0.1, 1)))}", "count"),
                    protein=S(f"{_jit(rng, protein + 0.5, 0.1, 0.1):.1f}", "measure"),
                    pct=S(rng.randint(4, 30), "count"),
                    nutrient=S(rng.choice(V.NUTRIENTS), "choice", pool=V.NUTRIENTS))

    main = [
        spec("{serving!c} {food} contains about {cal} calories, {carbs} grams of carbohydrates and {protein} grams of protein.",
             "There are roughly {cal} calories in {serving} {food}, along with {carbs} grams of carbs and {protein} grams of protein.",
             frames=("{serving!c} {food} has about {cal} calories",
                     "There are roughly {cal} calories in {serving} {food}",
                     "{serving!c} {food} contains approximately {cal} calories, with {carbs} grams of carbohydrates")),
        spec("{food!c} also provides {pct} percent of the recommended daily value of {nutrient}.",
             frames=("It also supplies {pct} percent of the daily value of {nutrient}",
                     "It provides about {pct} percent of the daily recommended {nutrient}")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main, slots(next(it))

    s0 = slots(picks[0])
    food = picks[0][1]
    q = [f"how many calories in {picks[0][0]} {food}", f"calories in {food}",
         f"how many calories does {picks[0][0]} {food} have"]
    fillers = ("Calorie counts can vary with size, brand and preparation method.",
               "Nutrition labels list values per serving, so check the serving size.",
               "The daily values are based on a 2,000 calorie diet.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("For comparison, {serving} {food} has about {cal} calories",))


def _qa_bake(rng: random.Random) -> QASpec:
    picks = rng.sample(V.BAKE_ITEMS, 3)
    it = iter(picks[1:])

    def slots(entry) -> dict[str, Slot]:
        item, temp, lo, hi = entry
        return dict(item=S(item), temp=S(temp, "measure"), lo=S(lo, "count"), hi=S(hi, "count"),
                    rest=S(rng.choice((3, 5, 10)), "count"),
                    doneness=S(rng.choice(V.DONENESS)))

    main = [
        spec("Bake {item} at {temp} degrees Fahrenheit for {lo} to {hi} minutes, or until {doneness}.",
             "For best results, cook {item} in a {temp} degree oven for {lo} to {hi} minutes, until {doneness}.",
             frames=("Bake {item} at {temp} degrees Fahrenheit for {lo} to {hi} minutes",
                     "At {temp} degrees, baking {item} takes about {lo} to {hi} minutes",
                     "You should bake {item} for {lo} to {hi} minutes at {temp} degrees")),
        spec("Allow {rest} minutes of resting time before serving.",
             "Allow about {rest} minutes of resting time before serving.",
             frames=("Allow {rest} minutes of resting time before serving",
                     "Afterward, allow {rest} minutes of rest before serving")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(picks[0])
    q = [f"how long to bake {picks[0][0]} at {picks[0][1]}", f"how long do you bake {picks[0][0]}",
         f"{picks[0][0]} baking time"]
    fillers = ("Preheat the oven fully before the pan goes in.",
               "Oven temperatures vary, so start checking a few minutes early.",
               "A rimmed baking sheet lined with parchment makes cleanup easier.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("By contrast, baking {item} takes {lo} to {hi} minutes at {temp} degrees",))


def _qa_duration(rng: random.Random) -> QASpec:
    picks = rng.sample(V.DURATIONS, 3)
    it = iter(picks[1:])

    def slots(entry) -> dict[str, Slot]:
        process, unit, lo, hi = entry
        lo2 = max(1, int(_jit(rng, lo, 0.2, 1)))
        hi2 = max(lo2 + 1, int(_jit(rng, hi, 0.2, 1)))
        return dict(process=S(process), unit=S(unit), lo=S(lo2, "count"), hi=S(hi2, "count"),
                    fast=S(max(1, lo2 // 2), "count"), fee=S(_money(rng.choice((35, 60, 110, 150, 250))), "money"))

    main = [
        spec("It usually takes {lo} to {hi} {unit} to {process}.",
             "Most people can expect it to take between {lo} and {hi} {unit} to {process}.",
             frames=("It usually takes {lo} to {hi} {unit} to {process}",
                     "To {process}, you should expect {lo} to {hi} {unit}",
                     "The process to {process} typically lasts between {lo} and {hi} {unit}")),
        spec("An expedited option can cut this to about {fast} {unit} for an extra fee of {fee}.",
             frames=("An expedited option can shorten this to about {fast} {unit} for an extra {fee}",
                     "Paying an additional {fee} can reduce the time to roughly {fast} {unit}")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(picks[0])
    q = [f"how long does it take to {picks[0][0]}", f"how long to {picks[0][0]}",
         f"time it takes to {picks[0][0]}"]
    fillers = ("Processing times can change during busy seasons.",
               "Delays are most often caused by missing documents.",
               "Checking requirements in advance can save time.")
    return QASpec(tuple(q), main, s0, distractor, fillers)


def _qa_cost(rng: random.Random) -> QASpec:
    picks = rng.sample(V.COSTS, 3)
    it = iter(picks[1:])

    def slots(entry) -> dict[str, Slot]:
        service, avg = entry
        a = _jit(rng, avg, 0.2, 10)
        factors = rng.sample(V.COST_FACTORS, 2)
        return dict(service=S(service), avg=S(_money(a), "money"),
                    low=S(_money(_jit(rng, a * 0.55, 0.1, 10)), "money"),
                    high=S(_money(_jit(rng, a * 1.8, 0.1, 10)), "money"),
                    f1=S(factors[0]), f2=S(factors[1]),
                    site=S(rng.choice(("HomeAdvisor", "Angi", "Fixr", "CostHelper")), "choice",
                           pool=("HomeAdvisor", "Angi", "Fixr", "CostHelper", "Thumbtack", "Porch")))

    main = [
        spec("The average cost to {service} is {avg}, with most people paying between {low} and {high}.",
             "According to {site}, it costs an average of {avg} to {service}, and typical prices range from {low} to {high}.",
             frames=("The average cost to {service} is {avg}",
                     "It costs about {avg} on average to {service}, with most paying between {low} and {high}",
                     "Most people pay between {low} and {high} to {service}")),
        spec("Prices depend mainly on {f1} and {f2}.",
             frames=("The price depends mainly on {f1} and {f2}",)),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(picks[0])
    q = [f"how much does it cost to {picks[0][0]}", f"cost to {picks[0][0]}",
         f"average price to {picks[0][0]}"]
    fillers = ("Getting at least three quotes is the best way to compare prices.",
               "Some contractors offer financing for larger jobs.",
               "Costs are usually higher in large metropolitan areas.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("In comparison, it costs about {avg} to {service}",))


def _qa_weather(rng: random.Random) -> QASpec:
    city, st = rng.choice(V.US_CITIES)
    months = rng.sample(range(12), 3)
    base = rng.randint(50, 72)
    it = iter(months[1:])

    def slots(m: int) -> dict[str, Slot]:
        season = -math.cos(2 * math.pi * (m - 0.5) / 12)
        hi = int(base + 20 * season + rng.randint(-3, 3))
        lo = hi - rng.randint(12, 22)
        return dict(city=S(city, "name"), month=S(V.MONTHS[m], "month"), hi=S(hi, "measure"),
                    lo=S(lo, "measure"), rain=S(f"{rng.uniform(0.4, 5.5):.1f}", "measure"),
                    days=S(rng.randint(3, 14), "count"))

    main = [
        spec("In {month}, {city} has an average high of {hi} degrees Fahrenheit and an average low of {lo} degrees.",
             "{city} sees average highs of {hi} degrees and lows of {lo} degrees in {month}.",
             frames=("In {month}, {city} has an average high of {hi} degrees and an average low of {lo} degrees",
                     "The average temperature in {city} in {month} ranges from a low of {lo} to a high of {hi} degrees Fahrenheit",
                     "{city} averages highs of {hi} degrees in {month}")),
        spec("The city typically receives {rain} inches of rain over {days} days that month.",
             frames=("The city typically gets {rain} inches of rain over about {days} days in that month",
                     "Rain falls on about {days} days, totaling around {rain} inches")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(months[0])
    mname = V.MONTHS[months[0]]
    q = [f"average temperature in {city} in {mname}", f"what is the weather like in {city} in {mname}",
         f"{city} {mname.lower()} temperatures"]
    fillers = ("Weather can vary considerably from year to year.",
               f"{city} has a humid continental to temperate climate depending on elevation.",
               "Visitors should pack layers for changing conditions.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("In {month}, by contrast, highs average {hi} degrees",))


def _qa_founded(rng: random.Random) -> QASpec:
    orgs = _companies(rng, 3)
    product = rng.sample(V.PRODUCT_WORDS, 3)
    it = iter(range(1, 3))
    alts = tuple(_companies(rng, 8))

    def slots(i: int) -> dict[str, Slot]:
        city, st = rng.choice(V.US_CITIES)
        hq, _ = rng.choice(V.US_CITIES)
        return dict(org=S(orgs[i], "org", pool=alts), founder=S(_person(rng), "person"),
                    year=S(rng.randint(1948, 2012), "year"), city=S(city, "city"),
                    state=S(V.STATE_NAMES[st], "state"), hq=S(hq, "city"),
                    emp=S(_num(_jit(rng, rng.choice((450, 2300, 8000, 21000)), 0.2, 10)), "count"),
                    product=S(product[i], "choice", pool=V.PRODUCT_WORDS))

    main = [
        spec("{org} was founded in {year} by {founder} in {city}, {state}.",
             "Founded by {founder} in {year}, {org} started out in {city}, {state}.",
             frames=("{org} was founded in {year} by {founder}",
                     "{founder} founded {org} in {city}, {state}, in {year}",
                     "{org} was established in {year} in {city}, {state}")),
        spec("The company makes {product}, is headquartered in {hq} and employs about {emp} people.",
             "Today the {product} maker is based in {hq} and has about {emp} employees.",
             frames=("Today the company is headquartered in {hq} and employs about {emp} people",
                     "It now has about {emp} employees and is based in {hq}",
                     "The company, which makes {product}, is based in {hq}")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main, slots(next(it))

    s0 = slots(0)
    q = [f"when was {orgs[0]} founded", f"who founded {orgs[0]}", f"{orgs[0].lower()} founded year"]
    fillers = ("The company went public in the following decade.",
               "It has expanded through a series of acquisitions.",
               "Its products are sold in stores across North America.")
    return QASpec(tuple(q), main, s0, distractor, fillers)


def _qa_lifespan(rng: random.Random) -> QASpec:
    picks = rng.sample(V.ANIMALS, 3)
    it = iter(picks[1:])

    def slots(entry) -> dict[str, Slot]:
        name, lo, hi, cap, w1, w2 = entry
        lo2 = max(1, int(_jit(rng, lo, 0.15, 1)))
        return dict(animals=S(name), lo=S(lo2, "count"), hi=S(max(lo2 + 1, int(_jit(rng, hi, 0.15, 1))), "count"),
                    cap=S(int(_jit(rng, cap, 0.15, 1)), "count"),
                    w1=S(_num(_jit(rng, w1, 0.1, 1)), "count"), w2=S(_num(_jit(rng, w2, 0.1, 1)), "count"))

    main = [
        spec("{animals!c} typically live {lo} to {hi} years in the wild, while those in captivity can reach {cap} years.",
             "In the wild, {animals} usually live between {lo} and {hi} years; in captivity they may live up to {cap} years.",
             frames=("{animals!c} usually live {lo} to {hi} years in the wild",
                     "In the wild, {animals} have a lifespan of {lo} to {hi} years, and up to {cap} years in captivity",
                     "{animals!c} can live up to {cap} years in captivity")),
        spec("Adult {animals} weigh between {w1} and {w2} pounds.",
             frames=("Adults weigh between {w1} and {w2} pounds",
                     "Adult {animals} weigh {w1} to {w2} pounds")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(picks[0])
    q = [f"how long do {picks[0][0]} live", f"lifespan of {picks[0][0]}",
         f"average life expectancy of {picks[0][0]}"]
    fillers = ("Predation, disease and habitat loss shorten many lives in the wild.",
               "Young animals face the highest mortality in their first year.",
               "Researchers track populations using tags and camera traps.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("By comparison, {animals} live {lo} to {hi} years in the wild",))


def _qa_lab(rng: random.Random) -> QASpec:
    picks = rng.sample(V.LAB_TESTS, 3)
    it = iter(picks[1:])

    def fmt(x: float) -> str:
        return _num(x) if x >= 100 else (f"{x:g}" if x == int(x) else f"{x:.1f}")

    def slots(entry) -> dict[str, Slot]:
        test, lo, hi, unit = entry
        step = 1000 if lo >= 1000 else (1 if lo >= 10 else 0.1)
        lo, hi = _jit(rng, lo, 0.06, step), _jit(rng, hi, 0.06, step)
        return dict(test=S(test), lo=S(fmt(lo), "measure"), hi=S(fmt(hi), "measure"), unit=S(unit),
                    price=S(_money(rng.choice((15, 25, 40, 60, 85, 120)) + rng.randint(0, 9)), "money"),
                    hours=S(rng.choice((12, 24, 48, 72)), "count"),
                    org=S(rng.choice(("the Mayo Clinic", "the Cleveland Clinic", "MedlinePlus", "the American Heart Association")),
                          "choice", pool=("the Mayo Clinic", "the Cleveland Clinic", "MedlinePlus",
                                          "the American Heart Association", "Johns Hopkins Medicine")))

    main = [
        spec("A normal {test} is between {lo} and {hi} {unit}, according to {org}.",
             "According to {org}, the normal range for {test} is {lo} to {hi} {unit}.",
             frames=("A normal {test} is between {lo} and {hi} {unit}",
                     "The normal range for {test} is {lo} to {hi} {unit}",
                     "According to {org}, normal values for {test} fall between {lo} and {hi} {unit}")),
        spec("The test costs about {price} without insurance, and results are usually ready within {hours} hours.",
             "Without insurance, expect to pay around {price}; most labs return results within {hours} hours.",
             frames=("The test costs about {price} without insurance",
                     "Results are usually ready within {hours} hours, and the test costs around {price} without insurance")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(picks[0])
    q = [f"what is a normal {picks[0][0]}", f"normal range for {picks[0][0]}",
         f"{picks[0][0]} normal range"]
    fillers = ("Ranges can differ slightly between laboratories.",
               "Results outside the range do not always mean something is wrong.",
               "Your doctor will interpret results alongside your symptoms and history.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("For reference, a normal {test} is {lo} to {hi} {unit}",))


def _qa_hours(rng: random.Random) -> QASpec:
    names = []
    while len(names) < 3:
        n = f"{rng.choice(V.STORE_WORDS_A)} {rng.choice(V.STORE_WORDS_B)}"
        if n.split()[0] not in {x.split()[0] for x in names}:
            names.append(n)
    it = iter(range(1, 3))
    style = rng.choice(("lower", "upper"))

    def slots(i: int) -> dict[str, Slot]:
        o, c = rng.randint(6, 9), rng.randint(20, 23)
        so, sc = o + rng.randint(0, 2), c - rng.randint(1, 3)
        return dict(store=S(names[i], "name"), open=S(_clock(o, 0, style), "time"),
                    close=S(_clock(c, 0, style), "time"), sopen=S(_clock(so, 0, style), "time"),
                    sclose=S(_clock(sc, 0, style), "time"),
                    count=S(_num(rng.randint(40, 2400)), "count"))

    main = [
        spec("Most {store} locations are open from {open} to {close} Monday through Saturday.",
             "{store} stores generally open at {open} and close at {close}, Monday through Saturday.",
             frames=("Most {store} locations are open from {open} to {close} Monday through Saturday",
                     "{store} stores typically close at {close} from Monday to Saturday")),
        spec("On Sunday, {store} hours are {sopen} to {sclose}.",
             "Sunday hours at {store} run from {sopen} until {sclose}.",
             frames=("On Sunday, {store} closes at {sclose} after opening at {sopen}",
                     "Sunday hours run from {sopen} to {sclose}")),
        spec("The chain operates {count} stores.",
             frames=("The chain operates {count} stores",)),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:2], slots(next(it))

    s0 = slots(0)
    q = [f"what time does {names[0].lower()} close on sunday", f"{names[0]} store hours",
         f"is {names[0]} open on sunday"]
    fillers = ("Hours may vary by location and on holidays.",
               "Pharmacy departments often keep shorter hours.",
               "Use the store locator to confirm hours before visiting.")
    return QASpec(tuple(q), main, s0, distractor, fillers)


def _qa_tuition(rng: random.Random) -> QASpec:
    towns = [_town(rng) for _ in range(3)]
    lasts = rng.sample(V.LAST_NAMES, 3)
    patterns = ("{t} State University", "University of {t}", "{l} College", "{l} Institute of Technology")
    unis = [rng.choice(patterns).format(t=towns[i], l=lasts[i]) for i in range(3)]
    it = iter(range(1, 3))

    def slots(i: int) -> dict[str, Slot]:
        t = _jit(rng, rng.choice((9500, 14000, 38000, 52000)), 0.15, 10)
        return dict(uni=S(unis[i], "name"), tuition=S(_money(t), "money"),
                    oos=S(_money(_jit(rng, t * 2.3, 0.1, 10)), "money"),
                    students=S(_num(_jit(rng, rng.choice((3000, 12000, 28000)), 0.2, 10)), "count"),
                    housing=S(_money(_jit(rng, 12000, 0.2, 10)), "money"),
                    year=S(rng.choice(("2023-24", "2024-25", "2022-23")), corrupt=False))

    main = [
        spec("Tuition at {uni} is {tuition} per year for in-state students and {oos} for out-of-state students.",
             "For the {year} school year, {uni} charges {tuition} in tuition for state residents and {oos} for nonresidents.",
             frames=("Tuition at {uni} is {tuition} per year for in-state students",
                     "{uni} charges in-state students {tuition} a year and out-of-state students {oos}",
                     "Out-of-state students pay {oos} per year at {uni}")),
        spec("Room and board add about {housing}, and the school enrolls roughly {students} undergraduates.",
             frames=("Room and board add about {housing} per year",
                     "The school enrolls roughly {students} undergraduates")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(0)
    q = [f"how much is tuition at {unis[0]}", f"{unis[0]} tuition", f"cost of attending {unis[0]}"]
    fillers = ("Financial aid can lower the net price considerably.",
               "Fees for labs and activities are billed separately.",
               "Tuition is set each spring by the board of trustees.")
    return QASpec(tuple(q), main, s0, distractor, fillers)


def _qa_bio(rng: random.Random) -> QASpec:
    people = _people(rng, 3)
    profs = rng.sample(V.PROFESSIONS, 3)
    it = iter(range(1, 3))
    titles = tuple(_title(rng) for _ in range(10))

    def slots(i: int) -> dict[str, Slot]:
        city, st = rng.choice(V.US_CITIES)
        prof, work, verb = profs[i]
        born = rng.randint(1948, 1992)
        return dict(person=S(people[i], "person"), prof=S(prof), work=S(work), verb=S(verb),
                    title=S(titles[i], "title", pool=titles), city=S(city, "city"),
                    state=S(V.STATE_NAMES[st], "state"),
                    date=S(f"{rng.choice(V.MONTHS)} {rng.randint(1, 28)}", "date"),
                    born=S(born, "year"), wyear=S(born + rng.randint(24, 30), "year"),
                    award=S(rng.choice(V.AWARDS), corrupt=False))

    main = [
        spec("{person} is an American {prof} born on {date}, {born}, in {city}, {state}.",
             "Born in {city}, {state}, on {date}, {born}, {person} is an American {prof}.",
             frames=("{person} is an American {prof} born in {city}, {state}",
                     "{person} was born on {date}, {born}, in {city}",
                     "Born in {born} in {city}, {person} is an American {prof}")),
        spec("{person} is best known for the {work} {title}, which {person} {verb} in {wyear} and which earned {award}.",
             frames=("{person} is best known for the {work} {title}, released in {wyear}",
                     "The {work} {title}, from {wyear}, is the best-known work of {person}",
                     "{person} {verb} the {work} {title} in {wyear}")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(0)
    q = [f"who is {people[0]}", f"{people[0].lower()} biography", f"where was {people[0]} born"]
    fillers = ("Critics have praised the work for its honesty and restraint.",
               "Interviews describe a private person who rarely tours.",
               "Several of the works have been translated into other languages.")
    return QASpec(tuple(q), main, s0, distractor, fillers)


def _qa_phone(rng: random.Random) -> QASpec:
    orgs = []
    while len(orgs) < 3:
        o = rng.choice(V.SERVICE_ORG_PATTERNS).format(a=rng.choice(V.ORG_WORDS_A), town=_town(rng))
        if o not in orgs:
            orgs.append(o)
    it = iter(range(1, 3))

    def slots(i: int) -> dict[str, Slot]:
        prefix = rng.choice(("800", "888", "877", "866", "855"))
        return dict(org=S(orgs[i], "name"), phone=S(f"1-{prefix}-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}", "phone"),
                    open=S(_clock(rng.randint(6, 9), 0, "lower"), "time"),
                    close=S(_clock(rng.randint(17, 22), 0, "lower"), "time"),
                    days=S(rng.choice(("Monday through Friday", "seven days a week", "Monday through Saturday")),
                           "choice", pool=("Monday through Friday", "seven days a week",
                                           "Monday through Saturday", "weekdays only")),
                    wait=S(rng.randint(4, 25), "count"), count=S(rng.randint(6, 80), "count"))

    main = [
        spec("You can reach {org} customer service at {phone}, {days} from {open} to {close} Eastern Time.",
             "The {org} customer service line, {phone}, is staffed {days} from {open} to {close} Eastern Time.",
             frames=("The {org} customer service number is {phone}",
                     "You can call {org} at {phone}, {days} from {open} to {close}",
                     "Customer service for {org} is available at {phone} from {open} to {close} Eastern Time")),
        spec("The average wait on the line is about {wait} minutes, and {org} also serves customers at {count} walk-in offices.",
             "Callers wait about {wait} minutes on average; {org} also runs {count} walk-in offices.",
             frames=("The average wait time on the phone line is about {wait} minutes",
                     "{org} also has {count} walk-in offices")),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(0)
    q = [f"{orgs[0].lower()} customer service phone number", f"phone number for {orgs[0]}",
         f"how do i contact {orgs[0]}"]
    fillers = ("Have your account number ready when you call.",
               "Many requests can also be handled through the online portal.",
               "Wait times are usually shortest in the morning.")
    return QASpec(tuple(q), main, s0, distractor, fillers)


def _qa_flight(rng: random.Random) -> QASpec:
    cities = rng.sample(V.US_CITIES, 4)
    origin = cities[0][0]
    it = iter(cities[2:])

    def slots(dest) -> dict[str, Slot]:
        hours = rng.randint(1, 5)
        return dict(a=S(origin, "name"), b=S(dest[0], "city"), h=S(hours, "count"),
                    m=S(rng.randint(5, 55), "count"),
                    miles=S(_num(_jit(rng, 250 + hours * 420, 0.1, 1)), "count"),
                    flights=S(rng.randint(2, 14), "count"))

    main = [
        spec("A nonstop flight from {a} to {b} takes about {h} hours and {m} minutes, covering {miles} miles.",
             "Nonstop flights between {a} and {b} cover {miles} miles and last roughly {h} hours and {m} minutes.",
             frames=("A nonstop flight from {a} to {b} takes about {h} hours and {m} minutes",
                     "The {miles}-mile nonstop flight from {a} to {b} lasts roughly {h} hours and {m} minutes",
                     "Flying nonstop from {a} to {b} covers {miles} miles")),
        spec("Airlines offer about {flights} nonstop flights on the route each day.",
             frames=("There are about {flights} nonstop flights on the route each day",)),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(cities[1])
    q = [f"how long is a flight from {origin} to {cities[1][0]}", f"flight time {origin} to {cities[1][0]}",
         f"how many hours is {origin} to {cities[1][0]} by plane"]
    fillers = ("Flight times vary with wind and routing.",
               "Connecting itineraries can take twice as long.",
               "Arrive at the airport at least an hour before domestic departures.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("By comparison, a nonstop flight from {a} to {b} takes about {h} hours and {m} minutes",))


def _qa_tax(rng: random.Random) -> QASpec:
    counties = rng.sample(V.COUNTY_NAMES, 3)
    state = _states(rng, 1)[0]
    srate = rng.choice((4.0, 4.5, 5.0, 5.75, 6.0, 6.25, 6.5, 7.0))
    it = iter(range(1, 3))

    def slots(i: int) -> dict[str, Slot]:
        local = rng.choice((0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.25, 2.5))
        return dict(county=S(counties[i], "county"), state=S(state, "name"), total=S(f"{srate + local:.2f}", "measure"),
                    srate=S(f"{srate:.2f}", "measure"), local=S(f"{local:.2f}", "measure"),
                    year=S(rng.randint(2019, 2024), "year"))

    main = [
        spec("The total sales tax rate in {county} County is {total} percent, which includes the {state} state rate of {srate} percent and a local rate of {local} percent.",
             "Shoppers in {county} County pay a combined {total} percent sales tax: {srate} percent to {state} and {local} percent in local taxes.",
             frames=("The total sales tax rate in {county} County is {total} percent",
                     "{county} County has a combined sales tax rate of {total} percent, including the {state} state rate of {srate} percent",
                     "The local portion of the sales tax in {county} County is {local} percent")),
        spec("The current rate took effect in {year}.",
             frames=("The current rate has been in effect since {year}",)),
    ]

    def distractor(r: random.Random) -> tuple[list[Spec], dict[str, Slot]]:
        return main[:1], slots(next(it))

    s0 = slots(0)
    q = [f"{counties[0].lower()} county sales tax rate", f"what is the sales tax in {counties[0]} County {state}",
         f"sales tax {counties[0]} county"]
    fillers = ("Groceries and prescription drugs are exempt from the state portion.",
               "Businesses must file sales tax returns monthly or quarterly.",
               "Rates can change at the start of a new fiscal year.")
    return QASpec(tuple(q), main, s0, distractor, fillers,
                  compare=("In neighboring {county} County, the combined rate is {total} percent",))


QA_TEMPLATES = (_qa_salary, _qa_county, _qa_calories, _qa_bake, _qa_duration, _qa_cost, _qa_weather,
                _qa_founded, _qa_lifespan, _qa_lab, _qa_hours, _qa_tuition, _qa_bio, _qa_phone,
                _qa_flight, _qa_tax)


def _marco_draft(rng: random.Random, sid: str) -> Draft:
    qa = rng.choice(QA_TEMPLATES)(rng)
    answer = realise(rng, qa.answer, qa.answer_slots)
    fillers = list(qa.fillers)
    rng.shuffle(fillers)
    question = rng.choice(qa.questions)
    if rng.random() < 0.6:
        question = question[:1].lower() + question[1:]
    else:
        question = question[:1].upper() + question[1:] + "?"

    def dist_passage() -> tuple[list[tuple[str, Fact | None]], Fact | None]:
        specs, slots = qa.distractor(rng)
        sents = realise(rng, specs, slots)
        compare = None
        if qa.compare:
            first_text = sents[0][0]
            names = {n for fr in qa.compare for n in _fields(fr)}
            compare = Fact(first_text, qa.compare, {n: slots[n] for n in sorted(names)})
        return [(t, None) for t, _ in sents], compare

    passages: list[list[tuple[str, Fact | None]]] = []
    compares: list[Fact] = []
    if len(answer) >= 2 and rng.random() < 0.4:
        cut = rng.randint(1, len(answer) - 1)
        passages.append(answer[:cut] + [(fillers.pop(), None)])
        passages.append([(fillers.pop(), None)] + answer[cut:])
        d, c = dist_passage()
        passages.append(d)
        compares += [c] if c else []
    else:
        body = answer + ([(fillers.pop(), None)] if rng.random() < 0.7 else [])
        passages.append(body)
        for _ in range(2):
            d, c = dist_passage()
            if fillers and rng.random() < 0.5:
                d.append((fillers.pop(), None))
            passages.append(d)
            compares += [c] if c else []
    rng.shuffle(passages)
    text = "\n\n".join(f"passage {i + 1}: " + " ".join(t for t, _ in p) for i, p in enumerate(passages))
    facts = [f for _, f in answer if f is not None]
    body = facts[1:]
    prompt = ("Briefly answer the following question:\n" + question +
              "\nBear in mind that your response should be strictly based on the following three "
              "passages:\n" + text + "\nIn case the passages do not contain the necessary "
              "information to answer the question, please reply with: \"Unable to answer based "
              "on given passages.\"\noutput:")
    source = Source(sid, "QA", "MARCO", {"question": question, "passages": text}, prompt)
    return Draft(source, facts[:1], body, (2, 4), "answer", (1985, 2022), optional=compares[:1])


# ------------------------------------------------------------------------------------------
# Summary: news articles
# ------------------------------------------------------------------------------------------

@dataclass
class Story:
    paragraphs: list[list[Spec]]
    slots: dict[str, Slot]
    fillers: tuple[str, ...] = ()
    """Background sentences without facts, attached to random paragraphs."""


def _story_budget(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    mayor, member, manager = _people(rng, 3)
    project, _ = rng.choice(V.CITY_PROJECTS)
    yes = rng.randint(5, 9)
    no = rng.randint(1, min(4, yes - 1))
    s = dict(city=S(city, "city"), state=S(V.STATE_NAMES[st], "name"), mayor=S(mayor, "person"),
             member=S(member, "person"), manager=S(manager, "person"),
             amount=S(f"${rng.randint(120, 980)} million", "money"),
             pct=S(_pct(rng.uniform(1.5, 7.9), 1), "percent"), vote=S(f"{yes}-{no}", "vote"),
             day=S(rng.choice(V.WEEKDAYS[:5]), "day"), fy=S(year + 1, "year"),
             project=S(project, "choice", pool=tuple(p for p, _ in V.CITY_PROJECTS)),
             cost=S(f"${rng.randint(4, 60)} million", "money"),
             officers=S(rng.randint(8, 60), "count"), firefighters=S(rng.randint(4, 30), "count"),
             tax=S(_money(rng.randint(40, 260)), "money"), date=S(f"July {rng.randint(1, 15)}", "date"))
    return Story([
        [spec("The {city} City Council voted {vote} on {day} to approve a {amount} budget for the {fy} fiscal year, an increase of {pct} over current spending.",
              "On {day}, the {city} City Council approved a {amount} spending plan for fiscal year {fy} in a {vote} vote, raising spending by {pct}.",
              frames=("The {city} City Council approved a {amount} budget for fiscal year {fy} by a {vote} vote",
                      "On {day}, the {city} City Council voted {vote} to pass a {amount} budget",
                      "{city} has approved a {amount} budget, a {pct} increase over current spending")),
         spec("The plan takes effect on {date}.", frames=("On {date}, the budget takes effect",))],
        [spec("Mayor {mayor} called the budget \"a responsible plan that invests in every neighborhood.\"",
              "\"This is a responsible budget that invests in every neighborhood,\" Mayor {mayor} said after the vote.",
              frames=("Mayor {mayor} praised the plan as an investment in every neighborhood",
                      "Mayor {mayor} called it a responsible plan that invests in every neighborhood")),
         spec("The largest new item is {project}, which is expected to cost {cost}.",
              frames=("The largest new item is {project}, expected to cost {cost}",
                      "The budget sets aside {cost} for {project}"))],
        [spec("Council member {member}, who voted against the measure, said the increase would strain taxpayers.",
              "Council member {member} opposed the plan, arguing that residents could not afford higher spending.",
              frames=("Council member {member} voted against the budget, saying it would strain taxpayers",
                      "{member}, a council member, opposed the measure")),
         spec("{member} estimated that the average homeowner would pay an extra {tax} a year.",
              frames=("{member} estimated the average homeowner would pay {tax} more each year",
                      "Opponents said the average homeowner would pay an extra {tax} a year"))],
        [spec("City Manager {manager} said the budget also funds {officers} new police officers and {firefighters} additional firefighters.",
              "The spending plan also pays for {officers} new police officers and {firefighters} firefighters, City Manager {manager} said.",
              frames=("The budget also funds {officers} new police officers and {firefighters} firefighters",
                      "It pays for {officers} additional police officers, according to City Manager {manager}"))],
        [spec("The council will hold a public hearing on the longer-term capital plan next month.",
              "Residents can comment on the capital plan at a public hearing next month.")],
    ], s, (
        'The city has faced rising costs for pensions and health insurance in recent years.',
        'Several residents spoke during the public comment period before the vote.',
        'The council debated the plan for nearly four hours.',
    ))


def _story_earnings(rng: random.Random, year: int) -> Story:
    org = _company(rng)
    alts = tuple(_companies(rng, 8))
    ceo, analyst = _people(rng, 2)
    hq, st = rng.choice(V.US_CITIES)
    rev = rng.uniform(0.4, 9.5)
    s = dict(org=S(org, "org", pool=alts), ceo=S(ceo, "person"), analyst=S(analyst, "person"),
             firm=S(rng.choice(V.ANALYST_FIRMS), "choice", pool=V.ANALYST_FIRMS),
             quarter=S(rng.choice(("first", "second", "third", "fourth")), "choice",
                       pool=("first", "second", "third", "fourth")),
             revenue=S(f"${rev:.1f} billion", "money"), growth=S(_pct(rng.randint(3, 28)), "percent"),
             profit=S(f"${rng.randint(40, 900)} million", "money"),
             hq=S(hq, "city"), state=S(V.STATE_NAMES[st], "name"), jobs=S(_num(rng.randint(150, 2400)), "count"),
             product=S(rng.choice(V.COMPANY_PRODUCTS), "choice", pool=V.COMPANY_PRODUCTS),
             stock=S(_pct(rng.uniform(2, 14), 1), "percent"), year=S(year, "year"))
    return Story([
        [spec("{org}, the {hq}-based maker of {product}, said on Thursday that revenue rose {growth} to {revenue} in the {quarter} quarter.",
              "Revenue at {org} climbed {growth} to {revenue} in the {quarter} quarter, the {hq}-based {product} company reported.",
              frames=("{org} reported that revenue rose {growth} to {revenue} in the {quarter} quarter",
                      "Revenue at {org}, a maker of {product}, grew {growth} in the {quarter} quarter",
                      "{org} posted {quarter}-quarter revenue of {revenue}, up {growth}")),
         spec("Net profit reached {profit}.", frames=("Net profit reached {profit}",
                                                      "The company earned a net profit of {profit}"))],
        [spec("Shares of {org} rose {stock} in early trading after the results beat analyst expectations.",
              "The stock jumped {stock} in morning trading as the results topped forecasts.",
              frames=("Shares rose {stock} after the results beat expectations",
                      "The company's stock climbed {stock} in early trading"))],
        [spec("Chief executive {ceo} credited strong demand and said the company would hire {jobs} workers by the end of {year}.",
              "\"Demand has never been stronger,\" said chief executive {ceo}, adding that {org} plans to hire {jobs} people by the end of {year}.",
              frames=("Chief executive {ceo} said the company plans to hire {jobs} workers by the end of {year}",
                      "{ceo}, the chief executive, credited strong demand for the results"))],
        [spec("{analyst}, an analyst at {firm}, said the company still faces rising costs for materials and shipping.",
              "Rising costs remain a concern, according to {analyst} of {firm}.",
              frames=("{analyst}, an analyst at {firm}, warned that rising costs remain a concern",
                      "Analyst {analyst} of {firm} cautioned that costs are still rising"))],
        [spec("The company will report its next results in three months.",
              "Executives will host a call with investors later this month.")],
    ], s, (
        'The company has expanded into several new markets over the past two years.',
        'Industry peers have reported mixed results this season.',
        'Executives said supply chain problems have largely eased.',
    ))


def _story_storm(rng: random.Random, year: int) -> Story:
    cities = rng.sample(V.US_CITIES, 2)
    gov, official = _people(rng, 2)
    utility = rng.choice(V.UTILITIES_PATTERNS).format(a=rng.choice(V.ORG_WORDS_A))
    s = dict(city=S(cities[0][0], "city"), state=S(V.STATE_NAMES[cities[0][1]], "state"),
             city2=S(cities[1][0], "city"), gov=S(gov, "person"), official=S(official, "person"),
             utility=S(utility, "name"), snow=S(rng.randint(8, 31), "count"), wind=S(rng.randint(45, 80), "count"),
             outages=S(_num(rng.randint(12, 240) * 1000), "count"),
             schools=S(rng.randint(20, 140), "count"), shelters=S(rng.randint(3, 18), "count"),
             day=S(rng.choice(V.WEEKDAYS), "day"), injured=S(rng.randint(2, 9), "count"))
    return Story([
        [spec("A powerful winter storm dumped up to {snow} inches of snow on {city} on {day}, with wind gusts reaching {wind} miles per hour.",
              "Up to {snow} inches of snow fell on {city} on {day} as a winter storm swept through {state} with gusts of {wind} miles per hour.",
              frames=("A winter storm dropped up to {snow} inches of snow on {city} on {day}",
                      "Wind gusts reached {wind} miles per hour as the storm hit {city}",
                      "The storm buried {city} under as much as {snow} inches of snow"))],
        [spec("More than {outages} customers lost power, according to {utility}.",
              "{utility} reported that more than {outages} homes and businesses were without power.",
              frames=("More than {outages} customers lost power",
                      "{utility} said over {outages} customers were left without electricity"))],
        [spec("Governor {gov} declared a state of emergency and urged residents to stay off the roads.",
              "Calling conditions dangerous, Governor {gov} declared a state of emergency.",
              frames=("Governor {gov} declared a state of emergency",
                      "{gov}, the governor, urged residents to stay off the roads")),
         spec("Officials opened {shelters} warming shelters across the region.",
              frames=("Officials opened {shelters} warming shelters",))],
        [spec("At least {injured} people were injured in crashes near {city2}, said {official}, a spokesperson for the state highway patrol.",
              "The highway patrol said {injured} people were hurt in crashes near {city2}, according to spokesperson {official}.",
              frames=("At least {injured} people were injured in crashes near {city2}",
                      "{official} of the highway patrol said {injured} people were hurt near {city2}")),
         spec("More than {schools} school districts canceled classes.",
              frames=("More than {schools} school districts canceled classes",))],
        [spec("Forecasters expect temperatures to stay below freezing through the weekend.",
              "Crews worked through the night to clear major highways.")],
    ], s, (
        'Road crews spread salt and sand on major routes overnight.',
        'Several flights were delayed or canceled at the regional airport.',
        'Residents were urged to check on elderly neighbors.',
    ))


def _story_sports(rng: random.Random, year: int) -> Story:
    (c1, _), (c2, _) = rng.sample(V.US_CITIES, 2)
    n1, n2 = rng.sample(V.TEAM_NICKNAMES, 2)
    star, coach, rival = _people(rng, 3)
    a = rng.randint(88, 124)
    b = a - rng.randint(2, 19)
    s = dict(home=S(f"{c1} {n1}", "name"), away=S(f"{c2} {n2}", "name"), star=S(star, "person"),
             coach=S(coach, "person"), rival=S(rival, "person"), score=S(f"{a}-{b}", "score"),
             points=S(rng.randint(24, 44), "count"), rebounds=S(rng.randint(6, 17), "count"),
             crowd=S(_num(rng.randint(11000, 21000)), "count"), streak=S(rng.randint(3, 9), "count"),
             arena=S(f"{rng.choice(V.ORG_WORDS_A)} Arena", "org",
                     pool=tuple(f"{w} Arena" for w in V.ORG_WORDS_A)),
             rpoints=S(rng.randint(15, 30), "count"), day=S(rng.choice(V.WEEKDAYS), "day"))
    return Story([
        [spec("{star} scored {points} points as the {home} beat the {away} {score} on {day} night.",
              "The {home} defeated the {away} {score} on {day}, led by {points} points from {star}.",
              frames=("The {home} beat the {away} {score}",
                      "{star} scored {points} points to lead the {home} past the {away}",
                      "On {day}, the {home} defeated the {away} {score} behind {star}"))],
        [spec("{star} also grabbed {rebounds} rebounds in front of a crowd of {crowd} at {arena}.",
              "Playing before {crowd} fans at {arena}, {star} added {rebounds} rebounds.",
              frames=("{star} also had {rebounds} rebounds",
                      "A crowd of {crowd} watched the game at {arena}"))],
        [spec("The win extended the team's streak to {streak} games.",
              frames=("The victory extended the winning streak to {streak} games",
                      "The team has now won {streak} straight games"))],
        [spec("\"We defended with a lot of energy tonight,\" coach {coach} said.",
              "Coach {coach} credited the defense for the win.",
              frames=("Coach {coach} credited the team's defense",
                      "{coach}, the coach, praised the defensive effort"))],
        [spec("{rival} led the {away} with {rpoints} points.",
              "For the {away}, {rival} finished with {rpoints} points.",
              frames=("{rival} scored {rpoints} points for the {away}",
                      "{rival} led the {away} with {rpoints} points"))],
    ], s, (
        'Both teams struggled with turnovers in the first half.',
        'The home side pulled ahead for good midway through the fourth quarter.',
        'The two teams meet again later this month.',
    ))


def _story_court(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    defendant, judge, prosecutor, lawyer = _people(rng, 4)
    county = rng.choice(V.COUNTY_NAMES)
    s = dict(defendant=S(defendant, "person"), judge=S(judge, "person"),
             prosecutor=S(prosecutor, "person"), lawyer=S(lawyer, "person"),
             age=S(rng.randint(29, 67), "count"), city=S(city, "city"),
             state=S(V.STATE_NAMES[st], "state"),
             charge=S(rng.choice(V.CHARGES), "choice", pool=V.CHARGES),
             years=S(rng.randint(2, 14), "count"), amount=S(_money(rng.randint(180, 4800) * 1000), "money"),
             victim=S(rng.choice(V.FRAUD_VICTIMS), "choice", pool=V.FRAUD_VICTIMS),
             county=S(county, "county"), day=S(rng.choice(V.WEEKDAYS[:5]), "day"),
             start=S(rng.randint(year - 6, year - 2), "year"))
    return Story([
        [spec("A {age}-year-old {city} man was sentenced on {day} to {years} years in prison for {charge}.",
              "{defendant}, {age}, of {city}, was sentenced to {years} years in federal prison on {day} after pleading guilty to {charge}.",
              frames=("A {city} man was sentenced to {years} years in prison for {charge}",
                      "{defendant} of {city} was given {years} years in prison for {charge}")),
         spec("{defendant} admitted stealing {amount} from {victim} between {start} and last year.",
              frames=("{defendant} admitted stealing {amount} from {victim}",
                      "Prosecutors said {amount} was taken from {victim} starting in {start}"))],
        [spec("Judge {judge} also ordered {defendant} to repay the full {amount}.",
              frames=("Judge {judge} ordered full repayment of {amount}",
                      "The judge, {judge}, ordered {defendant} to pay back {amount}"))],
        [spec("\"This was a calculated betrayal of trust,\" said {prosecutor}, the {county} County prosecutor.",
              "{county} County prosecutor {prosecutor} called the scheme a calculated betrayal of trust.",
              frames=("Prosecutor {prosecutor} called the scheme a betrayal of trust",
                      "{county} County prosecutor {prosecutor} described the crime as calculated"))],
        [spec("Defense attorney {lawyer} said the client regrets the harm and has begun making payments.",
              frames=("Defense attorney {lawyer} said the defendant regrets the harm",
                      "{lawyer}, the defense attorney, said repayments have begun"))],
    ], s, (
        'The case drew attention from local media after the charges were filed.',
        'Several victims submitted written statements to the court.',
        'Sentencing had been delayed twice.',
    ))


def _story_study(rng: random.Random, year: int) -> Story:
    town = _town(rng)
    uni = rng.choice((f"University of {town}", f"{town} State University", f"{rng.choice(V.LAST_NAMES)} University"))
    lead, outside = _people(rng, 2)
    exposure, outcome, measure = rng.choice(V.STUDY_TOPICS)
    s = dict(uni=S(uni, "name"), lead=S(lead, "person"), outside=S(outside, "person"),
             journal=S(rng.choice(V.JOURNALS), "choice", pool=V.JOURNALS),
             n=S(_num(rng.randint(400, 60000)), "count"), pct=S(_pct(rng.randint(8, 41)), "percent"),
             years=S(rng.randint(2, 15), "count"), exposure=S(exposure), outcome=S(outcome),
             measure=S(measure), age=S(rng.randint(18, 65), "count"))
    return Story([
        [spec("People who reported {exposure} had a {pct} lower risk of {outcome}, according to a study published this week in {journal}.",
              "A new study in {journal} found that {exposure} was linked to a {pct} lower risk of {outcome}.",
              frames=("A study in {journal} linked {exposure} to a {pct} lower risk of {outcome}",
                      "Researchers found that {exposure} was associated with a {pct} lower risk of {outcome}",
                      "According to a study published in {journal}, {exposure} lowered the risk of {outcome} by {pct}"))],
        [spec("Researchers at {uni} followed {n} adults over the age of {age} for {years} years.",
              "The team from {uni} tracked {n} participants aged {age} and older for {years} years.",
              frames=("The {uni} team followed {n} adults for {years} years",
                      "Researchers tracked {n} participants over {years} years"))],
        [spec("\"The effect held even after we accounted for income and diet,\" said lead author {lead}.",
              "Lead author {lead} said the effect held after accounting for income and diet.",
              frames=("Lead author {lead} said the effect held after accounting for income and diet",
                      "{lead}, the lead author, said income and diet did not explain the effect"))],
        [spec("{outside}, who was not involved in the study, cautioned that it shows an association rather than cause and effect.",
              frames=("{outside}, who was not involved, cautioned that the study shows only an association",
                      "Outside expert {outside} warned the findings do not prove cause and effect"))],
        [spec("The researchers measured {measure} at the start and end of the study.",
              "Participants completed surveys every two years.")],
    ], s, (
        'Previous research on the topic has produced mixed results.',
        'The study was funded by a public health grant.',
        'The authors called for larger trials to confirm the findings.',
    ))


def _story_fire(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    chief, resident = _people(rng, 2)
    h = rng.randint(1, 5)
    s = dict(city=S(city, "city"), chief=S(chief, "person"), resident=S(resident, "person"),
             building=S(rng.choice(V.BUILDINGS), "choice", pool=V.BUILDINGS),
             street=S(f"{rng.choice(V.STREET_NAMES)} Street"),
             time=S(_clock(h, rng.choice((0, 15, 30, 45)), "lower"), "time"),
             ff=S(rng.randint(35, 120), "count"), displaced=S(rng.randint(6, 64), "count"),
             injured=S(rng.randint(1, 4), "count"),
             cause=S(rng.choice(V.FIRE_CAUSES), "choice", pool=V.FIRE_CAUSES),
             minutes=S(rng.randint(40, 180), "count"), day=S(rng.choice(V.WEEKDAYS), "day"))
    return Story([
        [spec("A fire tore through {building} on {street} in {city} early {day}, displacing {displaced} residents.",
              "{displaced} people were forced from their homes after fire swept through {building} on {street} in {city} early {day}.",
              frames=("A fire in {city} displaced {displaced} residents early {day}",
                      "Fire swept through {building} on {street} in {city}, leaving {displaced} people displaced"))],
        [spec("About {ff} firefighters responded to the blaze, which was reported at {time}, and brought it under control in {minutes} minutes.",
              "The fire was reported at {time}, and roughly {ff} firefighters needed {minutes} minutes to control it.",
              frames=("About {ff} firefighters responded and controlled the fire in {minutes} minutes",
                      "The blaze was reported at {time} and brought under control in {minutes} minutes"))],
        [spec("Fire Chief {chief} said {injured} people were treated for smoke inhalation.",
              frames=("Fire Chief {chief} said {injured} people were treated for smoke inhalation",
                      "{injured} people were treated for smoke inhalation, according to Chief {chief}")),
         spec("Investigators believe the fire was caused by {cause}.",
              frames=("Investigators believe {cause} caused the fire",
                      "The cause is believed to be {cause}"))],
        [spec("\"Everything happened so fast,\" said {resident}, who escaped with two children.",
              frames=("Resident {resident} said everything happened very fast",
                      "{resident}, a resident, escaped with two children"))],
        [spec("The Red Cross is helping displaced families find temporary housing.",
              "Neighbors collected clothing and food for the families.")],
    ], s, (
        'Neighbors described seeing thick black smoke from several blocks away.',
        'Traffic was diverted around the scene for several hours.',
        'Building inspectors were expected to assess the damage.',
    ))


def _story_transit(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    head, rider = _people(rng, 2)
    line = rng.choice(V.TRANSIT_LINES)
    s = dict(city=S(city, "city"), head=S(head, "person"), rider=S(rider, "person"),
             line=S(line, "choice", pool=V.TRANSIT_LINES),
             miles=S(f"{rng.uniform(3, 14):.1f}", "measure"), stations=S(rng.randint(4, 14), "count"),
             cost=S(f"${rng.uniform(0.4, 3.2):.1f} billion", "money"),
             riders=S(_num(rng.randint(9, 60) * 1000), "count"), open=S(year + rng.randint(2, 6), "year"),
             fed=S(_pct(rng.randint(30, 60)), "percent"), minutes=S(rng.randint(8, 25), "count"))
    return Story([
        [spec("Transit officials in {city} broke ground on the {line}, a {miles}-mile project with {stations} new stations.",
              "Construction began on the {line} in {city}, adding {miles} miles of track and {stations} stations.",
              frames=("{city} broke ground on the {line}, which adds {miles} miles and {stations} stations",
                      "The {line} project in {city} will add {stations} new stations"))],
        [spec("The project is expected to cost {cost} and open in {open}.",
              "Officials expect the {cost} line to open to riders in {open}.",
              frames=("The project will cost {cost} and is expected to open in {open}",
                      "The line should open in {open} at a cost of {cost}")),
         spec("Federal grants cover {fed} of the cost.", frames=("Federal grants cover {fed} of the cost",))],
        [spec("Agency chief executive {head} said the line will carry {riders} riders a day and cut commutes by {minutes} minutes.",
              "The line is projected to serve {riders} daily riders, said agency chief {head}, saving commuters about {minutes} minutes.",
              frames=("Agency head {head} said the line will carry {riders} riders a day",
                      "The line is projected to cut commutes by {minutes} minutes, according to {head}"))],
        [spec("Longtime bus rider {rider} said the new line \"can't come soon enough.\"",
              frames=("Bus rider {rider} said the line cannot come soon enough",))],
    ], s, (
        'Traffic congestion in the region has worsened over the past decade.',
        'Local businesses along the route have raised concerns about construction detours.',
        'Opponents had argued that the money should go to bus service.',
    ))


def _story_hospital(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    donor, ceo = _people(rng, 2)
    hospital = rng.choice((f"{city} General Hospital", f"{rng.choice(V.LAST_NAMES)} Memorial Hospital",
                           f"{city} Children's Hospital", f"Saint {rng.choice(V.LAST_NAMES)} Medical Center"))
    wing = rng.choice(V.HOSPITAL_WINGS)
    s = dict(hospital=S(hospital, "name"), donor=S(donor, "person"), ceo=S(ceo, "person"), city=S(city, "city"),
             amount=S(f"${rng.randint(5, 95)} million", "money"),
             wing=S(wing, "choice", pool=V.HOSPITAL_WINGS), beds=S(rng.randint(18, 140), "count"),
             jobs=S(rng.randint(60, 400), "count"), open=S(year + rng.randint(1, 4), "year"),
             company=S(_company(rng), "name"))
    return Story([
        [spec("{hospital} received a {amount} gift from {donor} to build {wing}, the largest donation in its history.",
              "A {amount} donation from {donor}, the largest in the hospital's history, will pay for {wing} at {hospital}.",
              frames=("{donor} gave {amount} to {hospital} to build {wing}",
                      "{hospital} received a {amount} donation for {wing}",
                      "A {amount} gift from {donor} is the largest in the hospital's history"))],
        [spec("The new facility will have {beds} beds and is scheduled to open in {open}.",
              frames=("The facility will have {beds} beds and open in {open}",
                      "It is scheduled to open in {open} with {beds} beds"))],
        [spec("{donor}, who founded {company}, said the gift honors a family member treated at the hospital.",
              frames=("{donor}, founder of {company}, said the gift honors a family member",
                      "The donor, {donor}, founded {company}"))],
        [spec("Hospital chief executive {ceo} said the project will create {jobs} jobs.",
              frames=("Chief executive {ceo} said the project will create {jobs} jobs",
                      "The project is expected to create {jobs} jobs"))],
    ], s, (
        'The hospital has seen demand for its services grow steadily.',
        'Construction is expected to begin after final design approvals.',
        'Community leaders welcomed the announcement.',
    ))


def _story_election(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    winner, loser, analyst = _people(rng, 3)
    w = rng.randint(51, 64)
    offices = ("mayor", "county executive", "school board president", "city council president")
    s = dict(city=S(city, "city"), winner=S(winner, "person"), loser=S(loser, "person"),
             analyst=S(analyst, "person"), wpct=S(_pct(w), "percent"),
             lpct=S(_pct(100 - w - rng.randint(0, 3)), "percent"),
             turnout=S(_pct(rng.randint(18, 46)), "percent"),
             office=S(rng.choice(offices[:3]), "choice", pool=offices),
             votes=S(_num(rng.randint(600, 9000)), "count"), day=S("Tuesday"),
             date=S(f"January {rng.randint(1, 15)}", "date"))
    return Story([
        [spec("{winner} was elected {office} of {city} on {day}, defeating {loser} with {wpct} of the vote.",
              "Voters in {city} chose {winner} as their next {office} on {day}, giving {winner} {wpct} of the vote over {loser}.",
              frames=("{winner} was elected {office} of {city} with {wpct} of the vote",
                      "{winner} defeated {loser} to become {city}'s next {office}",
                      "{city} voters elected {winner} as {office}"))],
        [spec("{loser} received {lpct}, and the margin was about {votes} votes.",
              frames=("{loser} received {lpct} of the vote",
                      "The margin of victory was about {votes} votes"))],
        [spec("Turnout was {turnout}, according to the county elections office.",
              frames=("Turnout was {turnout}",
                      "About {turnout} of registered voters cast ballots"))],
        [spec("{winner} will be sworn in on {date}.", frames=("On {date}, {winner} will take office",))],
        [spec("Political analyst {analyst} said the result reflected frustration with rising housing costs.",
              frames=("Analyst {analyst} said the result reflected frustration over housing costs",))],
    ], s, (
        'Both candidates campaigned heavily on public safety and housing.',
        'Early voting numbers were higher than in the last election.',
        'The losing candidate conceded late in the evening.',
    ))


def _story_museum(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    artist, curator = _people(rng, 2)
    museum = rng.choice((f"{city} Museum of Art", f"{rng.choice(V.LAST_NAMES)} Art Museum",
                         f"{city} Contemporary Arts Center"))
    s = dict(museum=S(museum, "name"), artist=S(artist, "person"), curator=S(curator, "person"),
             works=S(rng.randint(40, 220), "count"),
             media=S(rng.choice(V.EXHIBIT_MEDIA), "choice", pool=V.EXHIBIT_MEDIA),
             opening=S(f"{rng.choice(V.MONTHS[:6])} {rng.randint(1, 28)}", "date"),
             closing=S(f"{rng.choice(V.MONTHS[6:])} {rng.randint(1, 28)}", "date"),
             price=S(_money(rng.randint(12, 30)), "money"), decades=S(rng.choice(("three", "four", "five", "six")), "word_number"),
             born=S(rng.randint(1931, 1975), "year"), city=S(city, "city"))
    return Story([
        [spec("The {museum} will open a retrospective of {artist} on {opening}, featuring {works} {media} spanning {decades} decades.",
              "A retrospective of {artist}, with {works} {media} from {decades} decades of work, opens at the {museum} on {opening}.",
              frames=("On {opening}, the {museum} opens a retrospective of {artist}",
                      "The show features {works} {media} by {artist}",
                      "A {artist} retrospective with {works} works opens at the {museum}"))],
        [spec("{artist}, born in {born}, is known for large-scale {media} of industrial landscapes.",
              frames=("{artist}, born in {born}, is known for large {media} of industrial landscapes",))],
        [spec("Curator {curator} said the exhibition took four years to assemble.",
              frames=("Curator {curator} said the show took four years to assemble",))],
        [spec("Tickets cost {price}, and the show runs through {closing}.",
              frames=("The exhibition runs through {closing}, and tickets cost {price}",
                      "The show runs until {closing}, with tickets priced at {price}"))],
    ], s, (
        'The exhibition includes several works never before shown in public.',
        'Museum attendance has recovered strongly in recent years.',
        'A catalogue accompanies the exhibition.',
    ))


def _story_plant(rng: random.Random, year: int) -> Story:
    city, st = rng.choice(V.US_CITIES)
    org = _company(rng)
    alts = tuple(_companies(rng, 8))
    gov, ceo = _people(rng, 2)
    s = dict(org=S(org, "org", pool=alts), city=S(city, "city"), state=S(V.STATE_NAMES[st], "state"),
             gov=S(gov, "person"), ceo=S(ceo, "person"),
             invest=S(f"${rng.randint(80, 950)} million", "money"), jobs=S(_num(rng.randint(150, 1800)), "count"),
             wage=S(_money(rng.randint(48, 92) * 1000), "money"),
             product=S(rng.choice(V.COMPANY_PRODUCTS), "choice", pool=V.COMPANY_PRODUCTS),
             incentive=S(f"${rng.randint(5, 60)} million", "money"), open=S(year + rng.randint(1, 3), "year"),
             acres=S(rng.randint(40, 400), "count"))
    return Story([
        [spec("{org} will build a {invest} factory in {city}, creating {jobs} jobs, Governor {gov} announced.",
              "Governor {gov} announced that {org} plans a {invest} plant in {city} that will employ {jobs} people.",
              frames=("{org} will build a {invest} factory in {city}",
                      "Governor {gov} announced a new {org} plant in {city} with {jobs} jobs",
                      "The {invest} plant in {city} is expected to create {jobs} jobs"))],
        [spec("The plant will make {product} on a {acres}-acre site and is expected to open in {open}.",
              frames=("The plant will produce {product} and should open in {open}",
                      "It will sit on a {acres}-acre site and open in {open}"))],
        [spec("The average salary will be {wage}, according to the state commerce department.",
              frames=("Jobs at the plant will pay an average of {wage}",))],
        [spec("{state} offered {incentive} in tax credits to win the project.",
              frames=("The state offered {incentive} in tax incentives",
                      "{state} provided {incentive} in tax credits for the project"))],
        [spec("\"{city} has the workforce we need,\" said {org} chief executive {ceo}.",
              frames=("Chief executive {ceo} praised the local workforce",))],
    ], s, (
        'Economic development officials had courted the company for more than a year.',
        'The region has lost manufacturing jobs over the past two decades.',
        'Local colleges plan to offer training programs for future workers.',
    ))


def _story_airline(rng: random.Random, year: int) -> Story:
    (city, st), (city2, _) = rng.sample(V.US_CITIES, 2)
    airline = f"{rng.choice(V.ORG_WORDS_A)} Airlines"
    spokes, traveler = _people(rng, 2)
    s = dict(airline=S(airline, "org", pool=tuple(f"{w} Airlines" for w in V.ORG_WORDS_A)),
             city=S(city, "city"), city2=S(city2, "city"), spokes=S(spokes, "person"),
             traveler=S(traveler, "person"), cancel=S(_num(rng.randint(180, 2400)), "count"),
             delay=S(_num(rng.randint(400, 5000)), "count"), day=S(rng.choice(V.WEEKDAYS), "day"),
             voucher=S(_money(rng.choice((50, 75, 100, 150, 200))), "money"),
             hours=S(rng.randint(5, 30), "count"))
    return Story([
        [spec("{airline} canceled {cancel} flights on {day} after a computer outage grounded planes nationwide.",
              "A computer outage forced {airline} to cancel {cancel} flights on {day}.",
              frames=("{airline} canceled {cancel} flights on {day} because of a computer outage",
                      "A computer failure led {airline} to scrap {cancel} flights"))],
        [spec("Another {delay} flights were delayed, with the worst disruption at the airline's hub in {city}.",
              frames=("Another {delay} flights were delayed",
                      "The airline's hub in {city} was hit hardest"))],
        [spec("Spokesperson {spokes} said systems were restored after {hours} hours and offered customers {voucher} travel vouchers.",
              "The airline offered {voucher} vouchers to affected passengers, spokesperson {spokes} said, after systems came back {hours} hours later.",
              frames=("Spokesperson {spokes} said the systems were restored after {hours} hours",
                      "Affected passengers were offered {voucher} vouchers"))],
        [spec("Traveler {traveler}, stranded on the way to {city2}, said the airline sent no updates for hours.",
              frames=("{traveler}, a traveler headed to {city2}, complained of receiving no updates",))],
    ], s, (
        'Long lines formed at check-in counters throughout the day.',
        'Other carriers reported only minor delays.',
        'The outage was the second disruption for the airline this year.',
    ))


def _story_wildlife(rng: random.Random, year: int) -> Story:
    (city, st) = rng.choice(V.US_CITIES)
    park = f"{rng.choice(V.TOWN_PREFIXES)} {rng.choice(('Ridge', 'Lake', 'Canyon', 'Valley', 'River'))} State Park"
    animal = rng.choice(("bald eagles", "river otters", "sandhill cranes", "black bears", "bobcats",
                         "monarch butterflies", "wild turkeys", "peregrine falcons"))
    bio, ranger = _people(rng, 2)
    s = dict(park=S(park, "name"), animal=S(animal), bio=S(bio, "person"), ranger=S(ranger, "person"),
             count=S(rng.randint(12, 400), "count"), prev=S(rng.randint(2, 11), "count"),
             year0=S(rng.randint(year - 15, year - 5), "year"), city=S(city, "city"),
             acres=S(_num(rng.randint(1200, 30000)), "count"),
             grant=S(_money(rng.randint(120, 900) * 1000), "money"))
    return Story([
        [spec("Biologists counted {count} {animal} at {park} this year, up from just {prev} in {year0}.",
              "The number of {animal} at {park} has climbed to {count}, compared with {prev} in {year0}.",
              frames=("Biologists counted {count} {animal} at {park} this year",
                      "The {animal} population at {park} rose from {prev} in {year0} to {count}"))],
        [spec("State biologist {bio} credited habitat restoration on {acres} acres near {city}.",
              frames=("Biologist {bio} credited the restoration of {acres} acres of habitat",
                      "{bio}, a state biologist, said habitat work near {city} helped"))],
        [spec("A {grant} grant will fund monitoring for five more years.",
              frames=("A {grant} grant will pay for five more years of monitoring",))],
        [spec("Park ranger {ranger} asked visitors to keep their distance and stay on marked trails.",
              frames=("Ranger {ranger} urged visitors to stay on marked trails",))],
    ], s, (
        'The species was once common throughout the region.',
        'Volunteers helped with the annual count.',
        'Officials said the recovery is fragile and depends on continued protection.',
    ))


STORIES = (_story_budget, _story_earnings, _story_storm, _story_sports, _story_court, _story_study,
           _story_fire, _story_transit, _story_hospital, _story_election, _story_museum,
           _story_plant, _story_airline, _story_wildlife)


def _news_draft(rng: random.Random, sid: str, label: str) -> Draft:
    years = (2008, 2015) if label == "CNN/DM" else (2022, 2024)
    year = rng.randint(*years)
    make = rng.choice(STORIES)
    story = make(rng, year)
    clauses, extra_sentences = STORY_ADDITIONS[make.__name__]
    paragraphs: list[list[tuple[str, Fact | None]]] = [realise(rng, p, story.slots) for p in story.paragraphs]
    fillers = list(story.fillers)
    rng.shuffle(fillers)
    for p in paragraphs[1:]:
        if fillers and rng.random() < 0.45:
            p.insert(rng.randint(0, len(p)), (fillers.pop(), None))
    texts = [" ".join(t for t, _ in p) for p in paragraphs]
    assert all(len(t) < 600 for t in texts), texts
    if label == "CNN/DM" and rng.random() < 0.35:
        texts[0] = "(CNN) -- " + texts[0]
    article = "\n\n".join(texts)
    facts = [[f for _, f in p if f is not None] for p in paragraphs]
    lead = facts[0][:1]
    body = facts[0][1:] + [f for p in facts[1:] for f in p]
    words = rng.choice((50, 60, 70, 80, 100, 116))
    prompt = f"Summarize the following news within {words} words:\n{article}\noutput:"
    source = Source(sid, "Summary", label, article, prompt)
    return Draft(source, lead, body, (3, 5), "article", (year - 30, year - 1),
                 clauses=clauses, extra_sentences=extra_sentences)


# ------------------------------------------------------------------------------------------
# Baseless additions
# ------------------------------------------------------------------------------------------

CLAUSES = {
    "Data2txt": (
        ("and it has been family-owned since {year}", "Evident Baseless Info"),
        ("which first opened its doors in {year}", "Evident Baseless Info"),
        ("and it also offers {feature}", "Subtle Baseless Info"),
        ("with {feature} available to guests", "Subtle Baseless Info"),
        ("and it was recently featured on {publication}", "Evident Baseless Info"),
        ("and the owner, {person}, often greets guests personally", "Evident Baseless Info"),
        ("making it one of the most popular spots in the neighborhood", "Subtle Baseless Info"),
        ("and it has won several local awards", "Subtle Baseless Info"),
        ("open since {year}", "Evident Baseless Info"),
        ("now under new ownership", "Subtle Baseless Info"),
        ("a true local favorite", "Subtle Baseless Info"),
    ),
    "QA": (
        ("according to a {year} report from {org}", "Evident Baseless Info"),
        ("which is about {pct} higher than the national average", "Evident Baseless Info"),
        ("although figures can vary by as much as {pct}", "Subtle Baseless Info"),
        ("based on data collected in {year}", "Evident Baseless Info"),
        ("making it one of the highest figures in the region", "Subtle Baseless Info"),
        ("as confirmed by {person} of {org}", "Evident Baseless Info"),
        ("as of {year}", "Evident Baseless Info"),
        ("according to {person}", "Evident Baseless Info"),
        ("on average nationwide", "Subtle Baseless Info"),
    ),
    "Summary": (
        ("according to a spokesperson for {org}", "Evident Baseless Info"),
        ("citing a report by {org}", "Evident Baseless Info"),
        ("according to {person}", "Evident Baseless Info"),
        ("the first time since {year}", "Evident Baseless Info"),
        ("officials confirmed", "Subtle Baseless Info"),
        ("local media reported", "Subtle Baseless Info"),
    ),
}
EXTRA_SENTENCES = {
    "Data2txt": (
        "The {noun} was founded in {year} by {person}",
        "It also hosts {event} every {weekday}",
        "Its owner, {person}, opened a second location in {city} in {year}",
        "The {noun} was named one of the best in {city} by {publication} in {year}",
    ),
    "QA": (
        "These figures were last updated in {year} by {org}",
        "Experts such as {person} recommend confirming the numbers with a local provider",
        "A {year} survey by {org} reported similar results",
    ),
    "Summary": (
        "{person}, a spokesperson for {org}, declined to comment further",
        "The story was first reported by {org}",
    ),
}
# Story-specific baseless clauses and sentences (appended to the generic ones above).
STORY_ADDITIONS: dict[str, tuple[tuple[tuple[str, str], ...], tuple[str, ...]]] = {
    "_story_budget": ((("a move expected to affect about {n} residents", "Evident Baseless Info"),
                       ("after months of negotiations", "Subtle Baseless Info"),
                       ("despite objections from {n} local residents", "Evident Baseless Info")),
                      ("Officials said a similar plan was rejected in {year}",)),
    "_story_earnings": ((("its best result since {year}", "Evident Baseless Info"),
                         ("driven largely by sales in {city}", "Evident Baseless Info"),
                         ("despite a {pct} drop in online orders", "Evident Baseless Info")),
                        ("The company also announced plans to open an office in {city}",)),
    "_story_storm": ((("the heaviest snowfall since {year}", "Evident Baseless Info"),
                      ("forcing the closure of {n} roads", "Evident Baseless Info"),
                      ("as temperatures dropped sharply overnight", "Subtle Baseless Info")),
                     ("The National Guard deployed {n} soldiers to help with rescues",)),
    "_story_sports": ((("their first win in the series since {year}", "Evident Baseless Info"),
                       ("in front of a sellout crowd", "Subtle Baseless Info"),
                       ("despite missing two starters", "Subtle Baseless Info")),
                      ("{person} left the game early with an ankle injury",)),
    "_story_court": ((("after a two-week trial", "Subtle Baseless Info"),
                      ("in a case investigated by {org}", "Evident Baseless Info"),
                      ("despite pleas for leniency from family members", "Subtle Baseless Info")),
                     ("{person}, a former business partner, testified against the defendant",)),
    "_story_study": ((("the largest study of its kind", "Subtle Baseless Info"),
                      ("funded in part by {org}", "Evident Baseless Info"),
                      ("with the strongest effect among women", "Subtle Baseless Info")),
                     ("A follow-up trial involving {n} patients is planned for {year}",)),
    "_story_fire": ((("the second fire at the address since {year}", "Evident Baseless Info"),
                     ("after a smoke detector failed", "Subtle Baseless Info"),
                     ("with flames visible from several miles away", "Subtle Baseless Info")),
                    ("The building had failed a safety inspection in {year}",)),
    "_story_transit": ((("making it the most expensive project in the city's history", "Subtle Baseless Info"),
                        ("despite opposition from {n} residents", "Evident Baseless Info"),
                        ("following a {year} ballot measure", "Evident Baseless Info")),
                       ("Construction is expected to remove {n} parking spaces downtown",)),
    "_story_hospital": ((("making it the largest gift in the state", "Subtle Baseless Info"),
                         ("in honor of {person}", "Evident Baseless Info"),
                         ("with construction starting in {month}", "Evident Baseless Info")),
                        ("The hospital plans to name the building after {person}",)),
    "_story_election": ((("in a race that drew national attention", "Subtle Baseless Info"),
                         ("the closest race since {year}", "Evident Baseless Info"),
                         ("after a late endorsement from {person}", "Evident Baseless Info")),
                        ("{person} endorsed the winner in the final week of the campaign",)),
    "_story_museum": ((("the first major exhibition of the artist's work since {year}", "Evident Baseless Info"),
                       ("with works on loan from {org}", "Evident Baseless Info"),
                       ("before the show travels to {city}", "Evident Baseless Info")),
                      ("Admission will be free on the first {weekday} of each month",)),
    "_story_plant": ((("the largest investment in the state's history", "Subtle Baseless Info"),
                      ("beating out a rival site in {city}", "Evident Baseless Info"),
                      ("after a search that lasted more than a year", "Subtle Baseless Info")),
                     ("Construction is expected to begin in {month}",)),
    "_story_airline": ((("the worst disruption since {year}", "Evident Baseless Info"),
                        ("caused by a faulty software update", "Subtle Baseless Info"),
                        ("affecting about {n} passengers", "Evident Baseless Info")),
                       ("The airline's chief executive, {person}, apologized in a video message",)),
    "_story_wildlife": ((("the highest count since {year}", "Evident Baseless Info"),
                         ("thanks to a ban on hunting", "Subtle Baseless Info"),
                         ("according to {org}", "Evident Baseless Info")),
                        ("A nesting pair was also spotted near {city}",)),
}
EVENTS = ("trivia night", "live jazz", "a wine tasting", "a comedy show", "open mic night",
          "a cooking class", "a farmers market", "karaoke")


def _fill(template: str, draft: Draft, rng: random.Random, hay: str) -> str | None:
    """Fill a baseless template with generated values that the source never mentions."""
    y0, y1 = draft.years
    gens: dict[str, Callable[[], str]] = {
        "year": lambda: str(rng.randint(y0, y1)),
        "person": lambda: _person(rng),
        "org": lambda: _company(rng),
        "n": lambda: _num(rng.choice((40, 75, 120, 200, 350, 600, 1200, 3000)) + rng.randint(0, 30)),
        "pct": lambda: _pct(rng.randint(6, 35)),
        "month": lambda: rng.choice(V.MONTHS),
        "city": lambda: rng.choice(V.YELP_CITIES + V.US_CITIES)[0],
        "publication": lambda: rng.choice(V.PUBLICATIONS),
        "event": lambda: rng.choice(EVENTS),
        "weekday": lambda: rng.choice(V.WEEKDAYS),
        "noun": lambda: draft.noun,
    }
    values: dict[str, str] = {}
    for name in _fields(template):
        if name in values:
            continue
        if name == "feature":
            options = [p for p, keys, _ in draft.features
                       if all(k not in hay for k in keys) and p.lower() not in hay]
            if not options:
                return None
            values[name] = rng.choice(options)
            continue
        for _ in range(30):
            v = gens[name]()
            if name in ("noun", "weekday") or (_absent(v, hay) and _content_words_absent(v, hay)):
                values[name] = v
                break
        else:
            return None
    text = template.format(**values)
    return text if _absent(text, hay) else None


# ------------------------------------------------------------------------------------------
# Responses
# ------------------------------------------------------------------------------------------

@dataclass
class Seg:
    text: str
    slot: str | None = None
    label: tuple[str, str] | None = None


@dataclass
class Sentence:
    segs: list[Seg]
    fact: Fact | None
    supported: bool = True
    whole_label: tuple[str, str] | None = None


_SAFE_LOWER = {"the", "it", "its", "a", "an", "in", "on", "this", "there", "one", "another",
               "entry-level", "most", "salaries", "pay", "reviewers", "customers", "guests",
               "researchers", "officials", "tuition", "adults", "you", "to", "at", "from",
               "afterward", "today", "more", "about", "rain", "net", "shares", "turnout",
               "tickets", "federal", "jobs", "flying", "customer", "service",
               "opponents", "affected", "agency", "prosecutors", "investigators", "for",
               "with", "amenities"}
_PROPER_KINDS = {"person", "first", "last", "city", "state", "town", "county", "org", "title", "name"}
MODEL_STYLE = {  # (opener probability, connector probability, favoured frame offset)
    "gpt-3.5-turbo-0613": (0.25, 0.15, 0),
    "gpt-4-0613": (0.10, 0.10, 1),
    "llama-2-7b-chat": (0.70, 0.40, 2),
    "llama-2-13b-chat": (0.60, 0.35, 3),
    "llama-2-70b-chat": (0.50, 0.30, 1),
    "mistral-7B-instruct": (0.30, 0.25, 2),
}
OPENERS = {
    "QA": ("Based on the passages, ", "According to the passages, ", "Based on the information provided, "),
    "Data2txt": ("Based on the provided data, ", "According to the listing, ", "Based on the business information, "),
    "Summary": ("According to the article, ", "As the report describes, ", "The news reports that "),
}
CONNECTORS = ("Additionally, ", "In addition, ", "Also, ", "Furthermore, ", "Moreover, ")


def _render_frame(frame: str, slots: dict[str, Slot]) -> list[Seg]:
    segs = []
    for literal, name, _, conv in _FMT.parse(frame):
        if literal:
            segs.append(Seg(literal))
        if name is not None:
            value = slots[name].value
            if conv == "c":
                value = value[:1].upper() + value[1:]
            segs.append(Seg(value, slot=name))
    return segs


def _first_word(segs: list[Seg]) -> str:
    text = "".join(s.text for s in segs)
    return text.split(" ", 1)[0].rstrip(",").lower()


def _add_prefix(sent: Sentence, prefix: str) -> None:
    """Prepend an opener or connective if the sentence start allows it (lower-casing it)."""
    first = next(s for s in sent.segs if s.text)
    if first.slot is None:
        if _first_word(sent.segs) not in _SAFE_LOWER:
            return
        first.text = first.text[:1].lower() + first.text[1:]
    elif sent.fact is None or sent.fact.slots[first.slot].kind not in _PROPER_KINDS:
        return
    sent.segs.insert(0, Seg(prefix))


def _sentence_text(sent: Sentence) -> tuple[str, list[tuple[int, int, str, str, str]]]:
    segs = [Seg(s.text, s.slot, s.label) for s in sent.segs if s.text]
    segs[0].text = segs[0].text[:1].upper() + segs[0].text[1:]
    text, labels, pos = "", [], 0
    for s in segs:
        if s.label is not None:
            labels.append((pos, pos + len(s.text), s.text, s.label[0], s.label[1]))
        text += s.text
        pos += len(s.text)
    if sent.whole_label is not None:
        labels.append((0, len(text), text, sent.whole_label[0], sent.whole_label[1]))
    return text + ".", labels


def _pick_frame(frames: tuple[str, ...], offset: int, rng: random.Random) -> str:
    favoured = offset % len(frames)
    weights = [3 if i == favoured else 1 for i in range(len(frames))]
    return rng.choices(frames, weights=weights)[0]


def _swap(sent: Sentence, draft: Draft, rng: random.Random, used: set[str]) -> bool:
    fact = sent.fact
    names = [s.slot for s in sent.segs if s.slot and s.label is None and fact.slots[s.slot].corrupt]
    names = list(dict.fromkeys(names))
    rng.shuffle(names)
    for name in names:
        slot = fact.slots[name]
        if slot.kind == "feature":
            options = [(p, typ) for p, keys, typ in draft.features
                       if p not in used and all(k not in draft.hay for k in keys)
                       and _absent(p, draft.hay)]
            if not options:
                continue
            alt, typ = rng.choice(options)
        else:
            got = _alternative(slot, rng, draft.hay, {u.lower() for u in used})
            if got is None:
                continue
            alt, typ = got
        seg = next(s for s in sent.segs if s.slot == name)
        if "Baseless" in typ:
            meta = f"The source does not mention {alt}; the response replaced \"{slot.value}\" with it."
        else:
            meta = f"The source gives \"{slot.value}\", not \"{alt}\"."
        seg.text = alt
        seg.label = (typ, meta)
        sent.supported = False
        used.add(alt)
        return True
    return False


def _clause(sent: Sentence, draft: Draft, rng: random.Random) -> bool:
    options = list(draft.clauses) + list(CLAUSES[draft.source.task_type])
    rng.shuffle(options)
    for template, typ in options:
        text = _fill(template, draft, rng, draft.hay)
        if text is None:
            continue
        sent.segs.append(Seg(", "))
        sent.segs.append(Seg(text, label=(typ, "The source does not support this added detail.")))
        sent.supported = False
        return True
    return False


def _extra_sentence(draft: Draft, rng: random.Random) -> Sentence | None:
    options = list(draft.extra_sentences) + list(EXTRA_SENTENCES[draft.source.task_type])
    rng.shuffle(options)
    for template in options:
        text = _fill(template, draft, rng, draft.hay)
        if text is None:
            continue
        return Sentence([Seg(text)], None, supported=False,
                        whole_label=("Evident Baseless Info", "The whole sentence is not supported by the source."))
    return None


def _respond(draft: Draft, model: str, rng: random.Random, corrupt: bool
             ) -> tuple[str, tuple[Label, ...], tuple[SentenceGold, ...]]:
    task = draft.source.task_type
    opener_p, connector_p, offset = MODEL_STYLE[model]
    lo, hi = draft.sentences
    n = rng.randint(lo, hi)
    k = max(0, min(n - len(draft.lead), len(draft.body)))
    picked_idx = sorted(rng.sample(range(len(draft.body)), k))
    facts = draft.lead + [draft.body[i] for i in picked_idx]
    for fact in draft.optional:
        if rng.random() < 0.3 and len(facts) < hi:
            facts.append(fact)
    sentences = []
    for i, fact in enumerate(facts):
        frame = _pick_frame(fact.frames, offset + i, rng)
        sentences.append(Sentence(_render_frame(frame, fact.slots), fact))
    if corrupt:
        n_spans = 2 if rng.random() < TWO_SPAN_PROB and len(sentences) >= 2 else 1
        targets = rng.sample(range(len(sentences)), n_spans)
        used: set[str] = set()
        done = 0
        extra: list[tuple[int, Sentence]] = []
        for t in targets:
            mode = rng.choices(("swap", "clause", "sentence"), weights=(0.65, 0.25, 0.10))[0]
            ok = False
            if mode == "sentence":
                new = _extra_sentence(draft, rng)
                if new is not None:
                    extra.append((t + 1, new))
                    ok = True
            if not ok and mode in ("swap", "sentence"):
                ok = _swap(sentences[t], draft, rng, used)
            if not ok:
                ok = _clause(sentences[t], draft, rng)
            if not ok:
                ok = _swap(sentences[t], draft, rng, used)
            done += ok
        for pos, new in sorted(extra, key=lambda x: -x[0]):
            sentences.insert(pos, new)
        if done == 0:
            raise RuntimeError(f"could not corrupt a response for {draft.source.source_id}")
    for i, sent in enumerate(sentences):
        if i == 0 and rng.random() < opener_p:
            _add_prefix(sent, rng.choice(OPENERS[task]))
        elif i > 0 and sent.fact is not None and rng.random() < connector_p:
            _add_prefix(sent, rng.choice(CONNECTORS))
    text, labels, gold, pos = "", [], [], 0
    for i, sent in enumerate(sentences):
        if i:
            text += " "
            pos += 1
        s_text, s_labels = _sentence_text(sent)
        for a, b, t, typ, meta in s_labels:
            labels.append(Label(pos + a, pos + b, t, typ, meta))
        chunk = sent.fact.chunk if sent.fact is not None else None
        gold.append(SentenceGold(pos, pos + len(s_text), chunk, sent.supported))
        text += s_text
        pos += len(s_text)
    for lab in labels:
        assert text[lab.start:lab.end] == lab.text
    return text, tuple(sorted(labels, key=lambda x: (x.start, x.end))), tuple(gold)


# ------------------------------------------------------------------------------------------
# Drafts -> corpus
# ------------------------------------------------------------------------------------------

class DraftError(AssertionError):
    """A draft whose facts cannot be located unambiguously in its evidence."""


def _finish(draft: Draft) -> Draft:
    """Locate every fact's gold chunk in the built evidence; check verbatim slots."""
    ev = build_evidence(draft.source)
    for fact in draft.lead + draft.body + draft.optional:
        hits = [c.index for c in ev.chunks if fact.anchor in c.text]
        if len(hits) != 1:
            raise DraftError(f"{draft.source.source_id}: anchor {fact.anchor[:50]!r} found in "
                                 f"{len(hits)} chunks")
        fact.chunk = hits[0]
        chunk_text = ev.chunks[hits[0]].text.lower()
        for name, slot in fact.slots.items():
            if slot.verbatim and slot.value.lower() not in chunk_text:
                raise DraftError(f"{draft.source.source_id}: slot {name}={slot.value!r} "
                                     f"not in chunk {hits[0]}")
    info = draft.source.source_info
    draft.hay = "\n".join([ev.text, ev.query or "",
                           info if isinstance(info, str) else json.dumps(info, ensure_ascii=False)]).lower()
    return draft


def _build_draft(seed: int, plan: TaskPlan, sid: str, attempts: int = 5) -> Draft:
    """The draft of one source; a rare ambiguous draft is redrawn from a derived seed."""
    for attempt in range(attempts):
        suffix = f":{attempt}" if attempt else ""
        rng = random.Random(f"audit:{seed}:source:{sid}{suffix}")
        if plan.task_type == "Data2txt":
            draft = _yelp_draft(rng, sid)
        elif plan.task_type == "QA":
            draft = _marco_draft(rng, sid)
        else:
            draft = _news_draft(rng, sid, plan.source)
        try:
            return _finish(draft)
        except DraftError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def _logit(p: float) -> float:
    return math.log(p / (1 - p))


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


def cell_rates(task_counts: dict[str, int]) -> dict[tuple[str, str], float]:
    """Per (model, task) corruption probability whose margins match MODEL_RATES and TASK_RATES.

    Additive on the logit scale (model effect + task effect), fitted by alternating updates
    of the two sets of offsets until both weighted margins match.
    """
    a = {m: _logit(r) for m, r in MODEL_RATES.items()}
    b = {t: 0.0 for t in task_counts}
    total = sum(task_counts.values())
    for _ in range(100):
        for t in task_counts:
            mean = sum(_sigmoid(a[m] + b[t]) for m in MODELS) / len(MODELS)
            b[t] += _logit(TASK_RATES[t]) - _logit(mean)
        worst = 0.0
        for m in MODELS:
            mean = sum(_sigmoid(a[m] + b[t]) * n for t, n in task_counts.items()) / total
            step = _logit(MODEL_RATES[m]) - _logit(mean)
            a[m] += step
            worst = max(worst, abs(step))
        if worst < 1e-9:
            break
    return {(m, t): _sigmoid(a[m] + b[t]) for m in MODELS for t in task_counts}


def generate_audit_corpus(seed: int = 17, scale: int = 1) -> Corpus:
    """The audit corpus for `seed` and `scale` (140 x scale sources, six responses each)."""
    if scale < 1:
        raise ValueError(f"scale must be >= 1, got {scale}")
    plan_rng = random.Random(f"audit:{seed}:plan")
    drafts: list[Draft] = []
    test_ids: set[str] = set()
    for plan in TASK_PLAN:
        ids = [f"{plan.prefix}-{i + 1:04d}" for i in range(plan.sources * scale)]
        drafts.extend(_build_draft(seed, plan, sid) for sid in ids)
        test_ids.update(plan_rng.sample(ids, plan.test * scale))
    by_task: dict[str, list[str]] = {}
    for d in drafts:
        by_task.setdefault(d.source.task_type, []).append(d.source.source_id)
    rates = cell_rates({t: len(v) for t, v in by_task.items()})
    corrupt: set[tuple[str, str]] = set()
    for model in MODELS:
        for task, ids in by_task.items():
            k = round(rates[(model, task)] * len(ids))
            corrupt.update((model, sid) for sid in plan_rng.sample(ids, k))
    responses: list[Response] = []
    for d in drafts:
        sid = d.source.source_id
        for model in MODELS:
            rng = random.Random(f"audit:{seed}:response:{sid}:{model}")
            text, labels, gold = _respond(d, model, rng, (model, sid) in corrupt)
            responses.append(Response(
                id=f"audit-{len(responses) + 1:06d}", source_id=sid, model=model,
                temperature=rng.choice(TEMPERATURES), labels=labels,
                split="test" if sid in test_ids else "train", quality="good",
                response=text, sentence_meta=gold))
    sources = {d.source.source_id: d.source for d in drafts}
    return Corpus(name="audit", sources=sources, responses=responses)


README_TEMPLATE = """# Audit corpus (seed {seed}, scale {scale})

A controlled, synthetic, seeded test bed for word-level hallucination detection in
retrieval-augmented answers. It is **not a benchmark**: sources, responses and
hallucinations are generated from templates and vocabulary pools by
`evidencechain.data.audit`, so results on it show whether a detector does what it claims
under known conditions, not how it performs on real model output.

Generated with:

```
evidencechain data audit --seed {seed}{scale_arg} --out data/audit
```

The same seed and scale always give byte-identical files.

## Layout

The files follow the RAGTruth interchange format.

`source_info.jsonl`, one source per line:

- `source_id`: e.g. `yelp-0007`, `marco-0012`, `cnndm-0003`, `news-0009`.
- `task_type`: `Data2txt`, `QA` or `Summary`.
- `source`: `Yelp`, `MARCO`, `CNN/DM` or `Recent News`.
- `source_info`: the evidence. Data2txt: a Yelp-style business record (name, address, city,
  state, postal_code, business_stars, review_count, is_open, categories, hours, attributes,
  review_info). QA: `{{"question": ..., "passages": "passage 1: ...\\n\\npassage 2: ..."}}`
  with three passages, one or two of which answer the question. Summary: a news article,
  paragraphs separated by blank lines.
- `prompt`: the instruction a generator would have received.

`response.jsonl`, one generated response per line (six per source, one per generator label):

- `id`, `source_id`, `model` (generator label), `temperature`, `split` (`train`/`test`),
  `quality` (always `good`), `response`.
- `labels`: hallucinated spans, each `{{start, end, text, meta, label_type}}` with
  `response[start:end] == text`. `label_type` is one of `Evident Conflict`,
  `Subtle Conflict` (a fact replaced by a value that contradicts the source),
  `Evident Baseless Info`, `Subtle Baseless Info` (an added detail the source does not
  support). No label text occurs anywhere in the source.
- `sentence_meta`: one entry per generated sentence: `start`, `end` (character offsets of
  the sentence in the response), `chunk_index` (the index, in
  `evidencechain.text.chunks.build_evidence(source).chunks`, of the evidence chunk the
  sentence was derived from; null for a wholly invented sentence) and `supported`
  (false when the sentence contains a hallucinated span).

Calibration sources are carved from the train sources by
`evidencechain.data.splits.assign_splits` (fraction 0.2, seed {seed}).

Generator labels differ only in how often their responses are corrupted and in sentence
frames and connective phrases; target response hallucination rates per label:
{model_rates}; per task: {task_rates}.

## Statistics

Sentences and tokens come from the spaCy pipeline `{pipeline}`; tokens exclude punctuation.

{tables}
"""


def write_audit_corpus(out_dir: str | Path = "data/audit", seed: int = 17, scale: int = 1) -> list[Path]:
    """Write response.jsonl, source_info.jsonl and README.md; return their paths."""
    from ..text.parse import pipeline_name
    from .stats import corpus_statistics, statistics_markdown

    out_dir = Path(out_dir)
    corpus = generate_audit_corpus(seed=seed, scale=scale)
    resp_path, src_path = write_ragtruth(corpus, out_dir)
    tables = corpus_statistics(corpus, seed=seed)
    readme = README_TEMPLATE.format(
        seed=seed, scale=scale, scale_arg=f" --scale {scale}" if scale != 1 else "",
        model_rates=", ".join(f"{m} {MODEL_RATES[m]:.2f}" for m in MODELS),
        task_rates=", ".join(f"{t} {r:.2f}" for t, r in TASK_RATES.items()),
        pipeline=pipeline_name(), tables=statistics_markdown(tables))
    readme_path = atomic_write_text(out_dir / "README.md", readme)
    return [resp_path, src_path, readme_path]


__all__ = ["MODELS", "MODEL_RATES", "TASK_PLAN", "TASK_RATES", "cell_rates",
           "generate_audit_corpus", "write_audit_corpus"]
