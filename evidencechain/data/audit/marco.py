"""QA sources: an MS MARCO-style question with three passages, one or two of which answer it.

A topic draws its subjects (the first is asked about; the others fill distractor passages)
and the slots of each subject; its wording lives in `templates/marco.toml`.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...records import Source
from .facts import Draft, Fact, Slot, fields, fill, realise, slot, specs
from .resources import CALENDAR, MARCO, NAMES, PLACES, QA_FACTS
from .values import (
    clock,
    company_names,
    grouped,
    jitter,
    money,
    person_name,
    person_names,
    town_name,
    us_states,
    with_article,
    work_title,
)


@dataclass
class Topic:
    subjects: Sequence
    slots: Callable[[object], dict[str, Slot]]
    fields: dict[str, object]
    """Values for the question and filler templates."""


def salary(rng: random.Random) -> Topic:
    job, jobs, base = rng.choice(QA_FACTS.jobs)
    states = us_states(rng, 3)

    def slots(state: str) -> dict[str, Slot]:
        sal = jitter(rng, base, 0.2, 10)
        return dict(job=slot(job), jobs=slot(jobs, verbatim=False),
                    a_job=slot(with_article(job), verbatim=False), state=slot(state, "state"),
                    salary=slot(money(sal), "money"),
                    low=slot(money(jitter(rng, sal * 0.65, 0.08, 100)), "money"),
                    high=slot(money(jitter(rng, sal * 1.5, 0.1, 100)), "money"),
                    source=slot(rng.choice(QA_FACTS.salary_sources), "choice", pool=QA_FACTS.salary_sources),
                    count=slot(grouped(jitter(rng, rng.randint(2000, 90000), 0.1, 10)), "count"))
    return Topic(states, slots, dict(job=job, jobs=jobs, a_job=with_article(job), state=states[0]))


def county(rng: random.Random) -> Topic:
    towns: list[str] = []
    while len(towns) < 3:
        t = town_name(rng)
        if t not in towns:
            towns.append(t)
    states = us_states(rng, 3)
    counties = rng.sample(PLACES.county_names, 3)

    def slots(i: int) -> dict[str, Slot]:
        return dict(town=slot(towns[i], "town"), county=slot(counties[i], "county"),
                    state=slot(states[i], "state"),
                    pop=slot(grouped(jitter(rng, rng.choice((4000, 12000, 38000, 95000)), 0.4, 1)), "count"),
                    year=slot(rng.choice((2010, 2020)), "year", corrupt=False),
                    seat=slot(town_name(rng), "town"), miles=slot(rng.randint(8, 70), "count"))
    return Topic(range(3), slots, dict(town=towns[0], state=states[0]))


def calories(rng: random.Random) -> Topic:
    picks = rng.sample(QA_FACTS.foods, 3)

    def slots(food) -> dict[str, Slot]:
        serving, name, cal, carbs, protein = food
        return dict(serving=slot(serving), food=slot(name),
                    cal=slot(int(jitter(rng, cal, 0.08, 1)), "count"),
                    carbs=slot(f"{max(1, round(jitter(rng, carbs + 1, 0.1, 1)))}", "count"),
                    protein=slot(f"{jitter(rng, protein + 0.5, 0.1, 0.1):.1f}", "measure"),
                    pct=slot(rng.randint(4, 30), "count"),
                    nutrient=slot(rng.choice(QA_FACTS.nutrients), "choice", pool=QA_FACTS.nutrients))
    return Topic(picks, slots, dict(serving=picks[0][0], food=picks[0][1]))


def bake(rng: random.Random) -> Topic:
    picks = rng.sample(QA_FACTS.bake_items, 3)

    def slots(entry) -> dict[str, Slot]:
        item, temp, lo, hi = entry
        return dict(item=slot(item), temp=slot(temp, "measure"), lo=slot(lo, "count"), hi=slot(hi, "count"),
                    rest=slot(rng.choice((3, 5, 10)), "count"),
                    doneness=slot(rng.choice(QA_FACTS.doneness)))
    return Topic(picks, slots, dict(item=picks[0][0], temp=picks[0][1]))


def duration(rng: random.Random) -> Topic:
    picks = rng.sample(QA_FACTS.durations, 3)

    def slots(entry) -> dict[str, Slot]:
        process, unit, lo, hi = entry
        lo2 = max(1, int(jitter(rng, lo, 0.2, 1)))
        hi2 = max(lo2 + 1, int(jitter(rng, hi, 0.2, 1)))
        return dict(process=slot(process), unit=slot(unit), lo=slot(lo2, "count"), hi=slot(hi2, "count"),
                    fast=slot(max(1, lo2 // 2), "count"),
                    fee=slot(money(rng.choice((35, 60, 110, 150, 250))), "money"))
    return Topic(picks, slots, dict(process=picks[0][0]))


def cost(rng: random.Random) -> Topic:
    picks = rng.sample(QA_FACTS.costs, 3)

    def slots(entry) -> dict[str, Slot]:
        service, avg = entry
        a = jitter(rng, avg, 0.2, 10)
        factors = rng.sample(QA_FACTS.cost_factors, 2)
        return dict(service=slot(service), avg=slot(money(a), "money"),
                    low=slot(money(jitter(rng, a * 0.55, 0.1, 10)), "money"),
                    high=slot(money(jitter(rng, a * 1.8, 0.1, 10)), "money"),
                    f1=slot(factors[0]), f2=slot(factors[1]),
                    site=slot(rng.choice(QA_FACTS.cost_sites), "choice",
                              pool=QA_FACTS.cost_sites + QA_FACTS.other_cost_sites))
    return Topic(picks, slots, dict(service=picks[0][0]))


def weather(rng: random.Random) -> Topic:
    city, _ = rng.choice(PLACES.us_cities)
    months = rng.sample(range(12), 3)
    base = rng.randint(50, 72)

    def slots(m: int) -> dict[str, Slot]:
        season = -math.cos(2 * math.pi * (m - 0.5) / 12)
        hi = int(base + 20 * season + rng.randint(-3, 3))
        lo = hi - rng.randint(12, 22)
        return dict(city=slot(city, "name"), month=slot(CALENDAR.months[m], "month"), hi=slot(hi, "measure"),
                    lo=slot(lo, "measure"), rain=slot(f"{rng.uniform(0.4, 5.5):.1f}", "measure"),
                    days=slot(rng.randint(3, 14), "count"))
    return Topic(months, slots, dict(city=city, month=CALENDAR.months[months[0]]))


def founded(rng: random.Random) -> Topic:
    orgs = company_names(rng, 3)
    products = rng.sample(QA_FACTS.product_words, 3)
    alternatives = tuple(company_names(rng, 8))

    def slots(i: int) -> dict[str, Slot]:
        city, st = rng.choice(PLACES.us_cities)
        hq, _ = rng.choice(PLACES.us_cities)
        return dict(org=slot(orgs[i], "org", pool=alternatives), founder=slot(person_name(rng), "person"),
                    year=slot(rng.randint(1948, 2012), "year"), city=slot(city, "city"),
                    state=slot(PLACES.state_names[st], "state"), hq=slot(hq, "city"),
                    emp=slot(grouped(jitter(rng, rng.choice((450, 2300, 8000, 21000)), 0.2, 10)), "count"),
                    product=slot(products[i], "choice", pool=QA_FACTS.product_words))
    return Topic(range(3), slots, dict(org=orgs[0]))


def lifespan(rng: random.Random) -> Topic:
    picks = rng.sample(QA_FACTS.animals, 3)

    def slots(entry) -> dict[str, Slot]:
        name, lo, hi, cap, w1, w2 = entry
        lo2 = max(1, int(jitter(rng, lo, 0.15, 1)))
        return dict(animals=slot(name), lo=slot(lo2, "count"),
                    hi=slot(max(lo2 + 1, int(jitter(rng, hi, 0.15, 1))), "count"),
                    cap=slot(int(jitter(rng, cap, 0.15, 1)), "count"),
                    w1=slot(grouped(jitter(rng, w1, 0.1, 1)), "count"),
                    w2=slot(grouped(jitter(rng, w2, 0.1, 1)), "count"))
    return Topic(picks, slots, dict(animals=picks[0][0]))


def _lab_value(x: float) -> str:
    return grouped(x) if x >= 100 else (f"{x:g}" if x == int(x) else f"{x:.1f}")


def lab(rng: random.Random) -> Topic:
    picks = rng.sample(QA_FACTS.lab_tests, 3)

    def slots(entry) -> dict[str, Slot]:
        test, lo, hi, unit = entry
        step = 1000 if lo >= 1000 else (1 if lo >= 10 else 0.1)
        lo, hi = jitter(rng, lo, 0.06, step), jitter(rng, hi, 0.06, step)
        return dict(test=slot(test), lo=slot(_lab_value(lo), "measure"), hi=slot(_lab_value(hi), "measure"),
                    unit=slot(unit),
                    price=slot(money(rng.choice((15, 25, 40, 60, 85, 120)) + rng.randint(0, 9)), "money"),
                    hours=slot(rng.choice((12, 24, 48, 72)), "count"),
                    org=slot(rng.choice(QA_FACTS.lab_sources), "choice",
                             pool=QA_FACTS.lab_sources + QA_FACTS.other_lab_sources))
    return Topic(picks, slots, dict(test=picks[0][0]))


def hours(rng: random.Random) -> Topic:
    names: list[str] = []
    while len(names) < 3:
        n = f"{rng.choice(QA_FACTS.store_words_a)} {rng.choice(QA_FACTS.store_words_b)}"
        if n.split()[0] not in {x.split()[0] for x in names}:
            names.append(n)
    style = rng.choice(("lower", "upper"))

    def slots(i: int) -> dict[str, Slot]:
        o, c = rng.randint(6, 9), rng.randint(20, 23)
        so, sc = o + rng.randint(0, 2), c - rng.randint(1, 3)
        return dict(store=slot(names[i], "name"), open=slot(clock(o, 0, style), "time"),
                    close=slot(clock(c, 0, style), "time"), sopen=slot(clock(so, 0, style), "time"),
                    sclose=slot(clock(sc, 0, style), "time"),
                    count=slot(grouped(rng.randint(40, 2400)), "count"))
    return Topic(range(3), slots, dict(store=names[0]))


def tuition(rng: random.Random) -> Topic:
    towns = [town_name(rng) for _ in range(3)]
    lasts = rng.sample(NAMES.last_names, 3)
    unis = [fill(rng.choice(QA_FACTS.university_patterns), {"town": towns[i], "last": lasts[i]})
            for i in range(3)]

    def slots(i: int) -> dict[str, Slot]:
        t = jitter(rng, rng.choice((9500, 14000, 38000, 52000)), 0.15, 10)
        return dict(uni=slot(unis[i], "name"), tuition=slot(money(t), "money"),
                    oos=slot(money(jitter(rng, t * 2.3, 0.1, 10)), "money"),
                    students=slot(grouped(jitter(rng, rng.choice((3000, 12000, 28000)), 0.2, 10)), "count"),
                    housing=slot(money(jitter(rng, 12000, 0.2, 10)), "money"),
                    year=slot(rng.choice(QA_FACTS.school_years), corrupt=False))
    return Topic(range(3), slots, dict(uni=unis[0]))


def bio(rng: random.Random) -> Topic:
    people = person_names(rng, 3)
    professions = rng.sample(QA_FACTS.professions, 3)
    titles = tuple(work_title(rng) for _ in range(10))

    def slots(i: int) -> dict[str, Slot]:
        city, st = rng.choice(PLACES.us_cities)
        profession, work, verb = professions[i]
        born = rng.randint(1948, 1992)
        return dict(person=slot(people[i], "person"), prof=slot(profession), work=slot(work), verb=slot(verb),
                    title=slot(titles[i], "title", pool=titles), city=slot(city, "city"),
                    state=slot(PLACES.state_names[st], "state"),
                    date=slot(f"{rng.choice(CALENDAR.months)} {rng.randint(1, 28)}", "date"),
                    born=slot(born, "year"), wyear=slot(born + rng.randint(24, 30), "year"),
                    award=slot(rng.choice(QA_FACTS.awards), corrupt=False))
    return Topic(range(3), slots, dict(person=people[0]))


def phone(rng: random.Random) -> Topic:
    orgs: list[str] = []
    while len(orgs) < 3:
        pattern = rng.choice(QA_FACTS.service_org_patterns)
        org = fill(pattern, {"a": rng.choice(NAMES.company_words_a), "town": town_name(rng)})
        if org not in orgs:
            orgs.append(org)

    def slots(i: int) -> dict[str, Slot]:
        prefix = rng.choice(QA_FACTS.phone_prefixes)
        number = f"1-{prefix}-{rng.randint(200, 989)}-{rng.randint(1000, 9999)}"
        return dict(org=slot(orgs[i], "name"), phone=slot(number, "phone"),
                    open=slot(clock(rng.randint(6, 9), 0, "lower"), "time"),
                    close=slot(clock(rng.randint(17, 22), 0, "lower"), "time"),
                    days=slot(rng.choice(QA_FACTS.service_days), "choice",
                              pool=QA_FACTS.service_days + QA_FACTS.other_service_days),
                    wait=slot(rng.randint(4, 25), "count"), count=slot(rng.randint(6, 80), "count"))
    return Topic(range(3), slots, dict(org=orgs[0]))


def flight(rng: random.Random) -> Topic:
    cities = rng.sample(PLACES.us_cities, 4)
    origin = cities[0][0]

    def slots(destination) -> dict[str, Slot]:
        hours = rng.randint(1, 5)
        return dict(a=slot(origin, "name"), b=slot(destination[0], "city"), h=slot(hours, "count"),
                    m=slot(rng.randint(5, 55), "count"),
                    miles=slot(grouped(jitter(rng, 250 + hours * 420, 0.1, 1)), "count"),
                    flights=slot(rng.randint(2, 14), "count"))
    return Topic(cities[1:], slots, dict(origin=origin, dest=cities[1][0]))


def tax(rng: random.Random) -> Topic:
    counties = rng.sample(PLACES.county_names, 3)
    state = us_states(rng, 1)[0]
    state_rate = rng.choice((4.0, 4.5, 5.0, 5.75, 6.0, 6.25, 6.5, 7.0))

    def slots(i: int) -> dict[str, Slot]:
        local = rng.choice((0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.25, 2.5))
        return dict(county=slot(counties[i], "county"), state=slot(state, "name"),
                    total=slot(f"{state_rate + local:.2f}", "measure"),
                    srate=slot(f"{state_rate:.2f}", "measure"), local=slot(f"{local:.2f}", "measure"),
                    year=slot(rng.randint(2019, 2024), "year"))
    return Topic(range(3), slots, dict(county=counties[0], state=state))


TOPICS: dict[str, Callable[[random.Random], Topic]] = {
    "salary": salary, "county": county, "calories": calories, "bake": bake, "duration": duration,
    "cost": cost, "weather": weather, "founded": founded, "lifespan": lifespan, "lab": lab,
    "hours": hours, "tuition": tuition, "bio": bio, "phone": phone, "flight": flight, "tax": tax,
}

Passage = list[tuple[str, Fact | None]]


def marco_draft(rng: random.Random, sid: str) -> Draft:
    name = rng.choice(tuple(TOPICS))
    topic = TOPICS[name](rng)
    wording = MARCO.topics[name]
    answer_specs = specs(wording["answer"])
    answer = realise(rng, answer_specs, topic.slots(topic.subjects[0]))
    fillers = [fill(f, topic.fields) for f in wording["fillers"]]
    rng.shuffle(fillers)
    question = fill(rng.choice(wording["questions"]), topic.fields)
    if rng.random() < 0.6:
        question = question[:1].lower() + question[1:]
    else:
        question = question[:1].upper() + question[1:] + "?"
    others = iter(topic.subjects[1:])
    compare_frames = wording.get("compare", ())

    def distractor() -> tuple[Passage, Fact | None]:
        """A passage about another subject, and a fact comparing that subject with the answer."""
        slots = topic.slots(next(others))
        sents = realise(rng, answer_specs[:wording["distractor_facts"]], slots)
        compare = None
        if compare_frames:
            names = {n for fr in compare_frames for n in fields(fr)}
            compare = Fact(sents[0][0], compare_frames, {n: slots[n] for n in sorted(names)})
        return [(t, None) for t, _ in sents], compare

    passages: list[Passage] = []
    compares: list[Fact] = []
    if len(answer) >= 2 and rng.random() < 0.4:
        cut = rng.randint(1, len(answer) - 1)
        passages.append(answer[:cut] + [(fillers.pop(), None)])
        passages.append([(fillers.pop(), None)] + answer[cut:])
        d, c = distractor()
        passages.append(d)
        compares += [c] if c else []
    else:
        passages.append(answer + ([(fillers.pop(), None)] if rng.random() < 0.7 else []))
        for _ in range(2):
            d, c = distractor()
            if fillers and rng.random() < 0.5:
                d.append((fillers.pop(), None))
            passages.append(d)
            compares += [c] if c else []
    rng.shuffle(passages)
    text = "\n\n".join(f"passage {i + 1}: " + " ".join(t for t, _ in p) for i, p in enumerate(passages))
    facts = [f for _, f in answer if f is not None]
    prompt = fill(MARCO.prompt, {"question": question, "passages": text})
    source = Source(sid, "QA", "MARCO", {"question": question, "passages": text}, prompt)
    return Draft(source, facts[:1], facts[1:], (2, 4), "answer", (1985, 2022), optional=compares[:1])
