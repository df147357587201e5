"""Summary sources: CNN/DM- and recent-news-style articles.

A story draws its slots here; its paragraphs, fillers and story-specific baseless additions
live in `templates/news.toml`.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from ...records import Source
from .facts import Draft, Fact, Slot, fill, realise, slot, specs
from .resources import CALENDAR, NAMES, NEWS, PLACES, STORIES
from .values import clock, company_name, company_names, grouped, money, percent, person_names, town_name


def budget(rng: random.Random, year: int) -> dict[str, Slot]:
    city, st = rng.choice(PLACES.us_cities)
    mayor, member, manager = person_names(rng, 3)
    project, _ = rng.choice(NEWS.city_projects)
    yes = rng.randint(5, 9)
    no = rng.randint(1, min(4, yes - 1))
    return dict(city=slot(city, "city"), state=slot(PLACES.state_names[st], "name"), mayor=slot(mayor, "person"),
                member=slot(member, "person"), manager=slot(manager, "person"),
                amount=slot(f"${rng.randint(120, 980)} million", "money"),
                pct=slot(percent(rng.uniform(1.5, 7.9), 1), "percent"), vote=slot(f"{yes}-{no}", "vote"),
                day=slot(rng.choice(CALENDAR.weekdays[:5]), "day"), fy=slot(year + 1, "year"),
                project=slot(project, "choice", pool=tuple(p for p, _ in NEWS.city_projects)),
                cost=slot(f"${rng.randint(4, 60)} million", "money"),
                officers=slot(rng.randint(8, 60), "count"), firefighters=slot(rng.randint(4, 30), "count"),
                tax=slot(money(rng.randint(40, 260)), "money"), date=slot(f"July {rng.randint(1, 15)}", "date"))


def earnings(rng: random.Random, year: int) -> dict[str, Slot]:
    org = company_name(rng)
    alternatives = tuple(company_names(rng, 8))
    ceo, analyst = person_names(rng, 2)
    hq, st = rng.choice(PLACES.us_cities)
    revenue = rng.uniform(0.4, 9.5)
    return dict(org=slot(org, "org", pool=alternatives), ceo=slot(ceo, "person"),
                analyst=slot(analyst, "person"),
                firm=slot(rng.choice(NEWS.analyst_firms), "choice", pool=NEWS.analyst_firms),
                quarter=slot(rng.choice(NEWS.quarters), "choice", pool=NEWS.quarters),
                revenue=slot(f"${revenue:.1f} billion", "money"),
                growth=slot(percent(rng.randint(3, 28)), "percent"),
                profit=slot(f"${rng.randint(40, 900)} million", "money"),
                hq=slot(hq, "city"), state=slot(PLACES.state_names[st], "name"),
                jobs=slot(grouped(rng.randint(150, 2400)), "count"),
                product=slot(rng.choice(NEWS.company_products), "choice", pool=NEWS.company_products),
                stock=slot(percent(rng.uniform(2, 14), 1), "percent"), year=slot(year, "year"))


def storm(rng: random.Random, year: int) -> dict[str, Slot]:
    cities = rng.sample(PLACES.us_cities, 2)
    gov, official = person_names(rng, 2)
    utility = fill(rng.choice(NEWS.utility_patterns), {"a": rng.choice(NAMES.company_words_a)})
    return dict(city=slot(cities[0][0], "city"), state=slot(PLACES.state_names[cities[0][1]], "state"),
                city2=slot(cities[1][0], "city"), gov=slot(gov, "person"), official=slot(official, "person"),
                utility=slot(utility, "name"), snow=slot(rng.randint(8, 31), "count"),
                wind=slot(rng.randint(45, 80), "count"),
                outages=slot(grouped(rng.randint(12, 240) * 1000), "count"),
                schools=slot(rng.randint(20, 140), "count"), shelters=slot(rng.randint(3, 18), "count"),
                day=slot(rng.choice(CALENDAR.weekdays), "day"), injured=slot(rng.randint(2, 9), "count"))


def sports(rng: random.Random, year: int) -> dict[str, Slot]:
    (c1, _), (c2, _) = rng.sample(PLACES.us_cities, 2)
    n1, n2 = rng.sample(NEWS.team_nicknames, 2)
    star, coach, rival = person_names(rng, 3)
    a = rng.randint(88, 124)
    b = a - rng.randint(2, 19)
    return dict(home=slot(f"{c1} {n1}", "name"), away=slot(f"{c2} {n2}", "name"), star=slot(star, "person"),
                coach=slot(coach, "person"), rival=slot(rival, "person"), score=slot(f"{a}-{b}", "score"),
                points=slot(rng.randint(24, 44), "count"), rebounds=slot(rng.randint(6, 17), "count"),
                crowd=slot(grouped(rng.randint(11000, 21000)), "count"), streak=slot(rng.randint(3, 9), "count"),
                arena=slot(f"{rng.choice(NAMES.company_words_a)} Arena", "org",
                           pool=tuple(f"{w} Arena" for w in NAMES.company_words_a)),
                rpoints=slot(rng.randint(15, 30), "count"), day=slot(rng.choice(CALENDAR.weekdays), "day"))


def court(rng: random.Random, year: int) -> dict[str, Slot]:
    city, st = rng.choice(PLACES.us_cities)
    defendant, judge, prosecutor, lawyer = person_names(rng, 4)
    county = rng.choice(PLACES.county_names)
    return dict(defendant=slot(defendant, "person"), judge=slot(judge, "person"),
                prosecutor=slot(prosecutor, "person"), lawyer=slot(lawyer, "person"),
                age=slot(rng.randint(29, 67), "count"), city=slot(city, "city"),
                state=slot(PLACES.state_names[st], "state"),
                charge=slot(rng.choice(NEWS.charges), "choice", pool=NEWS.charges),
                years=slot(rng.randint(2, 14), "count"),
                amount=slot(money(rng.randint(180, 4800) * 1000), "money"),
                victim=slot(rng.choice(NEWS.fraud_victims), "choice", pool=NEWS.fraud_victims),
                county=slot(county, "county"), day=slot(rng.choice(CALENDAR.weekdays[:5]), "day"),
                start=slot(rng.randint(year - 6, year - 2), "year"))


def study(rng: random.Random, year: int) -> dict[str, Slot]:
    town = town_name(rng)
    last = rng.choice(NAMES.last_names)
    university = fill(rng.choice(NEWS.study_university_patterns), {"town": town, "last": last})
    lead, outside = person_names(rng, 2)
    exposure, outcome, measure = rng.choice(NEWS.study_topics)
    return dict(uni=slot(university, "name"), lead=slot(lead, "person"), outside=slot(outside, "person"),
                journal=slot(rng.choice(NEWS.journals), "choice", pool=NEWS.journals),
                n=slot(grouped(rng.randint(400, 60000)), "count"),
                pct=slot(percent(rng.randint(8, 41)), "percent"),
                years=slot(rng.randint(2, 15), "count"), exposure=slot(exposure), outcome=slot(outcome),
                measure=slot(measure), age=slot(rng.randint(18, 65), "count"))


def fire(rng: random.Random, year: int) -> dict[str, Slot]:
    city, _ = rng.choice(PLACES.us_cities)
    chief, resident = person_names(rng, 2)
    hour = rng.randint(1, 5)
    return dict(city=slot(city, "city"), chief=slot(chief, "person"), resident=slot(resident, "person"),
                building=slot(rng.choice(NEWS.buildings), "choice", pool=NEWS.buildings),
                street=slot(f"{rng.choice(PLACES.street_names)} Street"),
                time=slot(clock(hour, rng.choice((0, 15, 30, 45)), "lower"), "time"),
                ff=slot(rng.randint(35, 120), "count"), displaced=slot(rng.randint(6, 64), "count"),
                injured=slot(rng.randint(1, 4), "count"),
                cause=slot(rng.choice(NEWS.fire_causes), "choice", pool=NEWS.fire_causes),
                minutes=slot(rng.randint(40, 180), "count"), day=slot(rng.choice(CALENDAR.weekdays), "day"))


def transit(rng: random.Random, year: int) -> dict[str, Slot]:
    city, _ = rng.choice(PLACES.us_cities)
    head, rider = person_names(rng, 2)
    line = rng.choice(NEWS.transit_lines)
    return dict(city=slot(city, "city"), head=slot(head, "person"), rider=slot(rider, "person"),
                line=slot(line, "choice", pool=NEWS.transit_lines),
                miles=slot(f"{rng.uniform(3, 14):.1f}", "measure"), stations=slot(rng.randint(4, 14), "count"),
                cost=slot(f"${rng.uniform(0.4, 3.2):.1f} billion", "money"),
                riders=slot(grouped(rng.randint(9, 60) * 1000), "count"),
                open=slot(year + rng.randint(2, 6), "year"),
                fed=slot(percent(rng.randint(30, 60)), "percent"), minutes=slot(rng.randint(8, 25), "count"))


def hospital(rng: random.Random, year: int) -> dict[str, Slot]:
    city, _ = rng.choice(PLACES.us_cities)
    donor, ceo = person_names(rng, 2)
    last, other_last = rng.choice(NAMES.last_names), rng.choice(NAMES.last_names)
    name = fill(rng.choice(NEWS.hospital_patterns), {"city": city, "last": last, "other_last": other_last})
    wing = rng.choice(NEWS.hospital_wings)
    return dict(hospital=slot(name, "name"), donor=slot(donor, "person"), ceo=slot(ceo, "person"),
                city=slot(city, "city"), amount=slot(f"${rng.randint(5, 95)} million", "money"),
                wing=slot(wing, "choice", pool=NEWS.hospital_wings), beds=slot(rng.randint(18, 140), "count"),
                jobs=slot(rng.randint(60, 400), "count"), open=slot(year + rng.randint(1, 4), "year"),
                company=slot(company_name(rng), "name"))


def election(rng: random.Random, year: int) -> dict[str, Slot]:
    city, _ = rng.choice(PLACES.us_cities)
    winner, loser, analyst = person_names(rng, 3)
    share = rng.randint(51, 64)
    return dict(city=slot(city, "city"), winner=slot(winner, "person"), loser=slot(loser, "person"),
                analyst=slot(analyst, "person"), wpct=slot(percent(share), "percent"),
                lpct=slot(percent(100 - share - rng.randint(0, 3)), "percent"),
                turnout=slot(percent(rng.randint(18, 46)), "percent"),
                office=slot(rng.choice(NEWS.offices), "choice", pool=NEWS.offices + NEWS.other_offices),
                votes=slot(grouped(rng.randint(600, 9000)), "count"), day=slot("Tuesday"),
                date=slot(f"January {rng.randint(1, 15)}", "date"))


def museum(rng: random.Random, year: int) -> dict[str, Slot]:
    city, _ = rng.choice(PLACES.us_cities)
    artist, curator = person_names(rng, 2)
    last = rng.choice(NAMES.last_names)
    name = fill(rng.choice(NEWS.museum_patterns), {"city": city, "last": last})
    return dict(museum=slot(name, "name"), artist=slot(artist, "person"), curator=slot(curator, "person"),
                works=slot(rng.randint(40, 220), "count"),
                media=slot(rng.choice(NEWS.exhibit_media), "choice", pool=NEWS.exhibit_media),
                opening=slot(f"{rng.choice(CALENDAR.months[:6])} {rng.randint(1, 28)}", "date"),
                closing=slot(f"{rng.choice(CALENDAR.months[6:])} {rng.randint(1, 28)}", "date"),
                price=slot(money(rng.randint(12, 30)), "money"),
                decades=slot(rng.choice(NEWS.decade_words), "word_number"),
                born=slot(rng.randint(1931, 1975), "year"), city=slot(city, "city"))


def plant(rng: random.Random, year: int) -> dict[str, Slot]:
    city, st = rng.choice(PLACES.us_cities)
    org = company_name(rng)
    alternatives = tuple(company_names(rng, 8))
    gov, ceo = person_names(rng, 2)
    return dict(org=slot(org, "org", pool=alternatives), city=slot(city, "city"),
                state=slot(PLACES.state_names[st], "state"), gov=slot(gov, "person"), ceo=slot(ceo, "person"),
                invest=slot(f"${rng.randint(80, 950)} million", "money"),
                jobs=slot(grouped(rng.randint(150, 1800)), "count"),
                wage=slot(money(rng.randint(48, 92) * 1000), "money"),
                product=slot(rng.choice(NEWS.company_products), "choice", pool=NEWS.company_products),
                incentive=slot(f"${rng.randint(5, 60)} million", "money"),
                open=slot(year + rng.randint(1, 3), "year"), acres=slot(rng.randint(40, 400), "count"))


def airline(rng: random.Random, year: int) -> dict[str, Slot]:
    (city, _), (city2, _) = rng.sample(PLACES.us_cities, 2)
    name = f"{rng.choice(NAMES.company_words_a)} Airlines"
    spokes, traveler = person_names(rng, 2)
    return dict(airline=slot(name, "org", pool=tuple(f"{w} Airlines" for w in NAMES.company_words_a)),
                city=slot(city, "city"), city2=slot(city2, "city"), spokes=slot(spokes, "person"),
                traveler=slot(traveler, "person"), cancel=slot(grouped(rng.randint(180, 2400)), "count"),
                delay=slot(grouped(rng.randint(400, 5000)), "count"),
                day=slot(rng.choice(CALENDAR.weekdays), "day"),
                voucher=slot(money(rng.choice((50, 75, 100, 150, 200))), "money"),
                hours=slot(rng.randint(5, 30), "count"))


def wildlife(rng: random.Random, year: int) -> dict[str, Slot]:
    city, _ = rng.choice(PLACES.us_cities)
    park = f"{rng.choice(PLACES.town_prefixes)} {rng.choice(NEWS.park_features)} State Park"
    animal = rng.choice(NEWS.wildlife)
    biologist, ranger = person_names(rng, 2)
    return dict(park=slot(park, "name"), animal=slot(animal), bio=slot(biologist, "person"),
                ranger=slot(ranger, "person"),
                count=slot(rng.randint(12, 400), "count"), prev=slot(rng.randint(2, 11), "count"),
                year0=slot(rng.randint(year - 15, year - 5), "year"), city=slot(city, "city"),
                acres=slot(grouped(rng.randint(1200, 30000)), "count"),
                grant=slot(money(rng.randint(120, 900) * 1000), "money"))


STORY_SLOTS: dict[str, Callable[[random.Random, int], dict[str, Slot]]] = {
    "budget": budget, "earnings": earnings, "storm": storm, "sports": sports, "court": court,
    "study": study, "fire": fire, "transit": transit, "hospital": hospital, "election": election,
    "museum": museum, "plant": plant, "airline": airline, "wildlife": wildlife,
}


def news_draft(rng: random.Random, sid: str, label: str) -> Draft:
    """A draft for `label` "CNN/DM" (older stories, sometimes datelined) or "Recent News"."""
    years = (2008, 2015) if label == "CNN/DM" else (2022, 2024)
    year = rng.randint(*years)
    name = rng.choice(tuple(STORY_SLOTS))
    slots = STORY_SLOTS[name](rng, year)
    story = STORIES.stories[name]
    paragraphs: list[list[tuple[str, Fact | None]]] = [
        realise(rng, specs(p["sentences"]), slots) for p in story["paragraphs"]]
    fillers = list(story["fillers"])
    rng.shuffle(fillers)
    for p in paragraphs[1:]:
        if fillers and rng.random() < 0.45:
            p.insert(rng.randint(0, len(p)), (fillers.pop(), None))
    texts = [" ".join(t for t, _ in p) for p in paragraphs]
    assert all(len(t) < 600 for t in texts), texts
    if label == "CNN/DM" and rng.random() < 0.35:
        texts[0] = STORIES.cnn_dateline + texts[0]
    article = "\n\n".join(texts)
    facts = [[f for _, f in p if f is not None] for p in paragraphs]
    lead = facts[0][:1]
    body = facts[0][1:] + [f for p in facts[1:] for f in p]
    words = rng.choice((50, 60, 70, 80, 100, 116))
    prompt = fill(STORIES.prompt, {"words": words, "article": article})
    source = Source(sid, "Summary", label, article, prompt)
    return Draft(source, lead, body, (3, 5), "article", (year - 30, year - 1),
                 clauses=story["baseless_clauses"], extra_sentences=story["baseless_sentences"])
