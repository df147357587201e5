"""Data2txt sources: Yelp-style business records, with reviews, and their facts."""
from __future__ import annotations

import json
import math
import random
import re

from ...records import Source
from .facts import Draft, Fact, Slot, fields, fill, slot, slot_values
from .resources import BUSINESSES, CALENDAR, NAMES, PLACES, YELP
from .values import clock, with_article

FeaturePool = tuple[tuple[str, tuple[str, ...], str], ...]
# Slots that review fact frames may use besides those of the review text itself.
_REVIEW_EXTRA_SLOTS = {"rmonth", "ryear", "noun", "be", "be2", "is_", "costs", "it"}


def business_name(rng: random.Random, profile: dict) -> str:
    pattern = rng.choice(profile["names"])
    last, last2 = rng.sample(NAMES.last_names, 2)
    values = {"last": last, "last2": last2, "first": rng.choice(NAMES.first_names),
              "street": rng.choice(PLACES.street_names)}
    values.update((key, rng.choice(words)) for key, words in BUSINESSES.name_words.items())
    return fill(pattern, values)


def postal_code(rng: random.Random, state: str) -> str:
    if state == "AB":
        letter = rng.choice(PLACES.alberta_postal_letters)
        return f"{rng.choice(PLACES.alberta_postal_prefixes)} {rng.randint(0, 9)}{letter}{rng.randint(0, 9)}"
    return rng.choice(PLACES.zip_prefixes[state]) + f"{rng.randint(0, 99):02d}"


def opening_hours(rng: random.Random, profile: dict) -> tuple[dict[str, str], list[tuple[tuple, tuple, tuple]]]:
    """Yelp hours dict and runs of days: (first day, last day), (open h, m), (close h, m)."""
    o = rng.randint(*profile["open"])
    c = rng.randint(*profile["close"])
    om = rng.choice((0, 0, 0, 30))
    cm = rng.choice((0, 0, 0, 30)) if c < 23 else 0
    yelp_style = rng.random() < 0.6

    def fmt(h: int, m: int) -> str:
        return f"{h}:{m}" if yelp_style else f"{h}:{m:02d}"

    closed_monday = rng.random() < 0.15
    weekdays = [d for d in CALENDAR.weekdays[:5] if not (closed_monday and d == "Monday")]
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


def attributes(rng: random.Random, profile: dict) -> tuple[dict, list[tuple[str, str]], dict[str, str]]:
    """Yelp attributes, the offered features as (phrase, key), and descriptive words."""
    kind = profile["kind"]
    table = BUSINESSES.attributes[kind]
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
        wifi, phrase = rng.choice(BUSINESSES.wifi)
        items.append(("WiFi", wifi))
        if phrase:
            features.append((phrase, "WiFi"))
    if kind == "food":
        if rng.random() < 0.8:
            alcohol, phrase = rng.choice(BUSINESSES.alcohol)
            items.append(("Alcohol", alcohol))
            if phrase:
                features.append((phrase, "Alcohol"))
        noise, word = rng.choice(BUSINESSES.noise)
        items.append(("NoiseLevel", noise))
        described["noise"] = word
        attire, word = rng.choice(BUSINESSES.attire)
        items.append(("RestaurantsAttire", attire))
        described["attire"] = word
    if rng.random() < 0.85:
        level = rng.choice(("1", "2", "2", "2", "3", "4") if kind == "food" else ("1", "2", "2", "3"))
        items.append(("RestaurantsPriceRange2", level))
        described["price"] = BUSINESSES.price_words[level]
    if kind == "food" and rng.random() < 0.3:
        music = {k: rng.random() < 0.35 for k in BUSINESSES.music_kinds}
        items.append(("Music", music))
        features.extend((BUSINESSES.music_kinds[k], "Music") for k, v in music.items() if v)
    if rng.random() < 0.8:
        parking = {k: False for k in BUSINESSES.parking_kinds}
        for k in rng.sample(("street", "lot", "lot", "garage", "validated"), rng.randint(1, 2)):
            parking[k] = True
        items.append(("BusinessParking", parking))
        features.extend((BUSINESSES.parking_phrases[k], "BusinessParking") for k, v in parking.items() if v)
    rng.shuffle(items)
    return dict(items), features, described


def _plural(noun: str) -> bool:
    last = noun.split()[-1]
    return last.endswith("s") and not last.endswith(("ss", "us")) and last not in ("gyros",)


def review(rng: random.Random, profile: dict, template: dict, noun: str, staff_names: list[str]
           ) -> tuple[dict, list[Fact]]:
    """One review record from a template, and the facts a response may take from it."""
    kind = profile["kind"]
    items = rng.sample(profile["items"], 2)
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
    other_items = tuple(i for i in profile["items"] if i not in items)
    plural = _plural(items[0])
    slots = dict(
        item=slot(items[0], "item", pool=other_items), item2=slot(items[1], "item", pool=other_items),
        adj_pos=slot(rng.choice(BUSINESSES.positive_adjectives[kind]), corrupt=False),
        adj_neg=slot(rng.choice(BUSINESSES.negative_adjectives[kind]), corrupt=False),
        staff=slot(staff_names.pop(), "first"), role=slot(rng.choice(profile["roles"]), corrupt=False),
        occasion=slot(rng.choice(profile["occasions"]), corrupt=False),
        minutes=slot(rng.choice((10, 15, 20, 25, 30, 35, 40, 45, 50, 60, 75, 90)), "count"),
        price=slot(price_text, "money"), weekday=slot(rng.choice(CALENDAR.weekdays), "day"),
        noun=slot(noun, verbatim=False), rmonth=slot(CALENDAR.months[month - 1], "month", verbatim=False),
        ryear=slot(year, "year"),
        be=slot("were" if plural else "was", verbatim=False),
        be2=slot("were" if _plural(items[1]) else "was", verbatim=False),
        is_=slot("are" if plural else "is", verbatim=False),
        costs=slot("cost" if plural else "costs", verbatim=False),
        it=slot("them" if plural else "it", verbatim=False),
        they=slot("they" if plural else "it", verbatim=False),
        It_be=slot("They were" if plural else "It was", verbatim=False),
    )
    text = fill(template["text"], slot_values(slots))
    record = {"review_stars": stars, "review_date": date, "review_text": text}
    available = set(fields(template["text"])) | _REVIEW_EXTRA_SLOTS
    facts = []
    for fact_type in template["facts"]:
        key = f"visit_{kind}" if fact_type == "visit" else fact_type
        frames = tuple(f for f in YELP.review_facts[key] if set(fields(f)) <= available)
        if not frames:
            continue
        names = sorted({n for f in frames for n in fields(f)})
        facts.append(Fact(text[:60], frames, {n: slots[n] for n in names}))
    return record, facts


def feature_pool(profile: dict, record_attributes: dict) -> FeaturePool:
    """Features the record does not list: (phrase, words that would settle it, label type)."""
    pool: list[tuple[str, tuple[str, ...], str]] = []
    for key, _, phrase in BUSINESSES.attributes[profile["kind"]]:
        if phrase and key not in record_attributes:
            words = tuple(w for w in re.findall(r"[a-z]+", phrase.lower()) if len(w) > 4)
            pool.append((phrase, (key.lower(),) + words, "Subtle Baseless Info"))
    for phrase, keys in BUSINESSES.extra_features:
        if all(phrase != p for p, _, _ in pool):
            pool.append((phrase, keys, "Evident Baseless Info"))
    return tuple(pool)


def _hours_facts(rng: random.Random, runs: list, hours: dict[str, str], noun: Slot) -> list[Fact]:
    style = "upper" if rng.random() < 0.3 else "lower"
    facts = []
    for (first, last), (oh, om), (ch, cm) in runs:
        slots = dict(open=slot(clock(oh, om, style), "time", verbatim=False),
                     close=slot(clock(ch, cm, style), "time", verbatim=False),
                     first=slot(first), last=slot(last), noun=noun)
        frames = YELP.frames["hours_range" if first != last else "hours_day"]
        facts.append(Fact(f"{first} {hours[first]}", frames, slots))
    return facts


def _attribute_facts(rng: random.Random, features: list[tuple[str, str]], described: dict[str, str],
                     name: str, noun: Slot) -> list[Fact]:
    facts = []
    rng.shuffle(features)
    if len(features) >= 2:
        k = min(len(features), rng.choice((2, 3, 3)))
        slots = {f"f{i + 1}": slot(features[i][0], "feature", verbatim=False) for i in range(k)}
        slots.update(name=slot(name, "name", verbatim=False), noun=noun)
        frames = YELP.frames["three_features" if k == 3 else "two_features"]
        facts.append(Fact("Attributes: ", frames, slots))
    if "noise" in described and "price" in described:
        prices = tuple(BUSINESSES.price_words.values())
        slots = dict(noise=slot(described["noise"], "choice", pool=BUSINESSES.noise_levels, verbatim=False),
                     attire=slot(described["attire"], "choice", pool=BUSINESSES.attire_levels, verbatim=False),
                     price=slot(described["price"], "choice", pool=prices, verbatim=False),
                     noun=noun)
        facts.append(Fact("Attributes: ", YELP.frames["described"], slots))
    return facts


def yelp_draft(rng: random.Random, sid: str) -> Draft:
    profile = rng.choice(BUSINESSES.profiles)
    noun = rng.choice(profile["nouns"])
    city, state = rng.choice(PLACES.yelp_cities)
    name = business_name(rng, profile)
    address = f"{rng.randint(12, 9899)} {rng.choice(PLACES.street_names)} {rng.choice(PLACES.street_suffixes)}"
    stars = rng.choice((2.0, 2.5, 3.0, 3.0, 3.5, 3.5, 3.5, 4.0, 4.0, 4.0, 4.5, 4.5, 5.0))
    count = int(round(math.exp(rng.uniform(math.log(6), math.log(1500)))))
    hours, runs = opening_hours(rng, profile)
    record_attributes, features, described = attributes(rng, profile)
    staff = rng.sample(NAMES.first_names, 5)
    reviews, review_facts = [], []
    for template in rng.sample(YELP.reviews[profile["kind"]], rng.choice((2, 3, 3, 4))):
        review_record, facts = review(rng, profile, template, noun, staff)
        reviews.append(review_record)
        review_facts.extend(facts)
    record = {
        "name": name, "address": address, "city": city, "state": state,
        "postal_code": postal_code(rng, state), "business_stars": stars, "review_count": count,
        "is_open": 1 if rng.random() < 0.9 else 0, "categories": rng.choice(profile["categories"]),
        "hours": hours, "attributes": record_attributes, "review_info": reviews,
    }
    base = dict(name=slot(name, "name"), noun=slot(noun, verbatim=False), city=slot(city, "city"),
                state=slot(state, "state"), address=slot(address, "address"),
                stars=slot(f"{stars:.1f}", "rating"), count=slot(count, "count"))
    intro = Fact(f"address: {address}", YELP.frames["intro"],
                 {**{k: base[k] for k in ("name", "address", "city", "state")},
                  "a_noun": slot(with_article(noun), verbatim=False)})
    rating = Fact(f"business stars: {stars}", YELP.frames["rating"],
                  {k: base[k] for k in ("name", "stars", "count", "noun")})
    body = [rating, *_hours_facts(rng, runs, hours, base["noun"]),
            *_attribute_facts(rng, features, described, name, base["noun"]), *review_facts]
    prompt = fill(YELP.prompt, {"record": json.dumps(record, ensure_ascii=False)})
    source = Source(sid, "Data2txt", "Yelp", record, prompt)
    return Draft(source, [intro], body, (3, 4), noun, (1968, 2016),
                 features=feature_pool(profile, record_attributes))
