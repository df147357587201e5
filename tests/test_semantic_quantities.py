"""The quantity and recombination frames of the conflict rule (features.semantic.quantities,
features.semantic.binding): each error flagged with confidence, and an equivalent answer of the same
shape left alone. All facts are invented."""
from __future__ import annotations

import pytest
from semantic_support import confident_signals

from evidencechain.features.semantic.align import sentence_views
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.features.semantic.quantities import quantities
from evidencechain.text.parse import parse_texts

FRAMES = [  # (evidence, error, class, flagged words, evidence words, an equivalent answer)
    # a number in words that the evidence's own words make another amount
    ("Half a dozen fishing boats were damaged when the storm hit Carrick harbour on Friday night.",
     "A dozen fishing boats were damaged when the storm hit Carrick harbour on Friday night.",
     "quantity", "A dozen", "Half a dozen",
     "Six fishing boats were damaged when the storm hit Carrick harbour on Friday night."),
    # the period of a rate, in another passage than the sentence the answer follows
    ("passage 1: The Ellery community pantry is open on Tuesdays and Fridays.\n\npassage 2: It hands out about "
     "300 food parcels per week, mostly to families with young children.",
     "The Ellery community pantry, open on Tuesdays and Fridays, hands out about 300 food parcels per month.",
     "quantity", "month", "week",
     "The Ellery community pantry, open on Tuesdays and Fridays, hands out about 300 food parcels a week."),
    # percentage points are not percent
    ("The Bexley Party's share of the vote rose by 4 percentage points, from 18 to 22 percent.",
     "The Bexley Party's vote share rose by 4 percent, reaching 22 percent.", "quantity", "percent",
     "percentage points", "The Bexley Party's vote share rose by 4 points, reaching 22 percent."),
    # a unit named by two words
    ("Water in the main pool at the Brackenmoor spring stays at about 38 degrees Celsius all year.",
     "Water in the main pool at the Brackenmoor spring stays at about 38 degrees Fahrenheit all year.",
     "quantity", "Fahrenheit", "degrees Celsius",
     "Water in the main pool at the Brackenmoor spring stays at about 100 degrees Fahrenheit all year."),
    ("The Morden nature reserve covers 5 square kilometres of wetland.",
     "The Morden nature reserve covers 5 square miles of wetland.", "quantity", "miles", "square kilometres",
     "The Morden nature reserve covers 500 hectares of wetland."),
    ("The rooftop array on the Linwood depot generates up to 450 kilowatts on a clear day.",
     "The rooftop array on the Linwood depot generates up to 450 megawatts on a clear day.", "quantity",
     "megawatts", "kilowatts", "The rooftop array on the Linwood depot generates up to 0.45 megawatts on a clear day."),
    # a rate's unit: a slash reads as 'per'
    ("The Kolt X2 race car reached a top speed of 210 kilometres per hour.",
     "The Kolt X2 race car reached a top speed of 210 miles per hour.", "quantity", "miles", "kilometres per hour",
     "The top speed of the Kolt X2 race car was 210 km/h."),
    # a duration stated in the source's other sentence
    ("The Garrison Road bridge will close for repairs from 3 June. Engineers expect the closure to last about six weeks.",
     "The Garrison Road bridge will close from 3 June for about six months of repairs.", "quantity", "months",
     "weeks", "The Garrison Road bridge will close from 3 June for about 42 days of repairs."),
    # values bound to the wrong holder: two prices, two ages, dates of two events, two grants, two catches
    ("The Lumetra Arc costs 129 euros, while the larger Lumetra Dome costs 219 euros.",
     "The Lumetra Arc headphones, which ship in October, cost 219 euros.", "recombination", "219", "129",
     "The larger Lumetra Dome headphones, which ship in October, cost 219 euros."),
    ("The expedition was led by Marta Ilves, 52, and her deputy, Jonah Beckett, 38, both from the Tarnholm "
     "Geographical Society.", "The Tarnholm Geographical Society expedition's leader, Marta Ilves, is 38 years old.",
     "recombination", "38", "52", "The Tarnholm Geographical Society expedition's deputy, Jonah Beckett, is 38 years old."),
    ("The Sandby lighthouse was first lit in 1868. Its keeper's cottage was added in 1897, and the light was "
     "automated in 1979.", "The light at the Sandby lighthouse has been automated since 1897.", "recombination",
     "1897", "1979", "The keeper's cottage at the Sandby lighthouse was added in 1897."),
    ("The Pyne Foundation gave 40,000 dollars to the Westbrook animal shelter and 15,000 dollars to the town's "
     "youth orchestra.", "Westbrook's youth orchestra received 40,000 dollars from the Pyne Foundation.",
     "recombination", "40,000", "15,000", "Westbrook's youth orchestra received 15,000 dollars from the Pyne Foundation."),
    ("The Skerrow harbour fleet landed 3,400 tonnes of mackerel and 820 tonnes of herring in 2022, its best "
     "year since 1998.", "In 2022, its best year since 1998, the Skerrow harbour fleet landed 820 tonnes of mackerel.",
     "recombination", "820", "3,400",
     "In 2022, its best year since 1998, the Skerrow harbour fleet landed 820 tonnes of herring."),
    ("On Saturday, the Rowan Hawks beat the Elmstead Owls 78-64. In the other semi-final, the Kinloch Stags "
     "edged the Burnside Foxes 71-70 in overtime.", "The Rowan Hawks reached the final by beating the Elmstead "
     "Owls 71-70.", "recombination", "Elmstead Owls 71", "Elmstead Owls 78",
     "The Rowan Hawks reached the final by beating the Elmstead Owls 78-64."),
    # a value given to the other holder of a comparison, told apart by a modifier ('part-time staff')
    ("Day-shift nurses at the Orrin clinic earned $48,000 on average, compared to $36,000 for night-shift nurses.",
     "Night-shift nurses at the Orrin clinic earned $48,000 on average.", "recombination", "48,000", "36,000",
     "Night-shift nurses at the Orrin clinic earned $36,000 on average."),
    ("This season the Pell Rovers' home matches drew 12,300 spectators on average, versus 6,800 for their away "
     "matches.", "The Pell Rovers' away matches drew 12,300 spectators on average this season.", "recombination",
     "12,300", "6,800", "The Pell Rovers' home matches drew 12,300 spectators on average this season."),
    # a count of times ('twice') with the period of its rate
    ("Volunteers at the Arden shelter walk the dogs twice a day during the winter.",
     "During the winter, volunteers at the Arden shelter walk the dogs twice a week.", "quantity", "week", "day",
     "During the winter, volunteers at the Arden shelter walk the dogs two times a day."),
    # a unit joined to its number by a hyphen ('a 30-mile trail')
    ("The coastal trail that the Dunmore ramblers opened last spring runs for 30 kilometres.",
     "The Dunmore ramblers opened the 30-mile coastal trail last spring.", "quantity", "mile",
     "kilometres", "The Dunmore ramblers opened the 30-kilometre coastal trail last spring."),
]


@pytest.mark.parametrize("evidence, error, cls, words, named, equivalent", FRAMES,
                         ids=[f"{f[2]}-{f[3]}" for f in FRAMES])
def test_the_error_is_flagged_and_its_equivalent_is_not(evidence, error, cls, words, named, equivalent):
    found = confident_signals(evidence, error)
    assert any(c == cls and w == words and n == named for c, w, n in found), found
    assert not confident_signals(evidence, equivalent)


@pytest.mark.parametrize("text, value, unit, per", [
    ("It lasts two and a half hours.", 2.5, "hour", ""),
    ("They hired thirty-six nurses.", 36, "nurse", ""),
    ("The fund holds half a million dollars.", 5e5, "usd", ""),
    ("The plant makes 40 megawatts per hour.", 40, "megawatt / hour", ""),
    ("The pantry gives out 300 parcels weekly.", 300, "parcel", "week"),
    ("Prices rose 3 percentage points.", 3, "point", ""),
    ("Divers raised a 450-kilogram bell.", 450, "kilogram", ""),
    ("She ran a 10-kilometre race.", 10, "kilometer", ""),
    ("The Class of '92 can't help but dream.", 92, "", ""),  # 'ca' of "can't" names no centi-annum
])
def test_quantities_read_number_words_units_and_rates(text, value, unit, per):
    doc, = parse_texts([text], progress=False)
    q = quantities(sentence_views(doc)[0], lexicon())[0]
    assert (q.value, q.unit, q.per) == (value, unit, per)


CLINIC = ("passage 1: The Ardle health centre opened in 2014 on Mill Lane.\n\n"
          "passage 2: Its manager, Dr. Ola Brandt, said the centre now treats around 900 patients a month.")


def test_a_period_changed_in_a_sentence_fusing_two_passages_is_flagged():
    """The same number before another period, in a sentence whose other words all come from the source:
    its amount is restated, its kind is changed."""
    wrong = ("According to its manager, Dr. Ola Brandt, the Ardle health centre on Mill Lane now treats around "
             "900 patients a week.")
    assert ("quantity", "week", "month") in confident_signals(CLINIC, wrong)
    faithful = ("According to its manager, Dr. Ola Brandt, the Ardle health centre on Mill Lane now treats around "
                "900 patients every month.")
    assert not confident_signals(CLINIC, faithful)


def test_a_rate_whose_period_moved_to_its_noun_is_left_alone():
    assert not confident_signals("Osk Farm's daily feed allowance for each calf is 310-320 g per day.\n\n"
                                 "Calves are weighed weekly.",
                                 "Each calf at Osk Farm, weighed weekly, gets a daily feed allowance of 310-320g.")
