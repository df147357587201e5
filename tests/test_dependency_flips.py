"""Polarity and antonym flips read from dependency arcs (features.semantic.dependency_flips): one
verb's reading against the same verb, or its opposite, with the same parties, wherever the rest of
the answer sentence comes from; shown by `detect`'s conflict rule, never a count of the fitted features."""
from __future__ import annotations

import pandas as pd
import pytest
from semantic_support import semantic_table

from evidencechain.features.semantic.align import evidence_views, sentence_views
from evidencechain.features.semantic.dependency_flips import flip_candidates, flips
from evidencechain.features.semantic.lexicon import lexicon
from evidencechain.text.parse import parse_texts

dependency = pytest.importorskip("evidencechain.text.dependency")
if dependency.dependency_pipeline_name() is None:
    pytest.skip("no spaCy model with a parser is installed", allow_module_level=True)


def _flipped(evidence: list[str], answer: str) -> list[tuple[str, str, str]]:
    parses = dependency.dependency_parses([answer, *evidence], progress=False)
    return [(answer[a:b], f.cls, f.evidence) for f in flips(parses[0], parses[1:], lexicon()) for a, b in [f.span]]


@pytest.mark.parametrize("evidence, answer, found", [
    (["She said the discovery suggests the species is recovering."],
     "According to the botanist, the orchid's appearance at two further spots indicates that the species is not recovering.",
     [("not recovering", "polarity", "recovering")]),
    (["Pilots at Coralline Air accepted a new labor contract on Friday."],
     "A new labor deal with a raise was not accepted by Coralline Air's pilots on Friday.",
     [("not accepted", "polarity", "accepted")]),
    (["Ridership on the Kestrel Bay ferry rose 18 percent last year, the port authority said."],
     "According to the port authority, Kestrel Bay ferry ridership fell 18 percent last year, a change officials "
     "attributed to a new route.", [("fell", "antonym", "rose")]),
    (["The Oswin Hills school district approved a plan to extend the school day by 30 minutes."],
     "A plan to lengthen the school day by half an hour was disapproved by the Oswin Hills school district.",
     [("disapproved", "antonym", "approved")]),
    (["The Harlow Creek water board did not renew its contract with Pellmont Filtration."],
     "Harlow Creek's water board renewed Pellmont Filtration's contract on Tuesday.",
     [("renewed", "polarity", "did not renew")]),
    (["The Harlow Creek water board voted to renew its contract with Pellmont Filtration."],
     "Harlow Creek's water board never renewed Pellmont Filtration's contract.",
     [("never renewed", "polarity", "renew")]),
    # a verb of the same relation (data/relations.tsv) negated
    (["Inspectors confirmed that the new lifts meet the Brayton fire code."],
     "The inspectors said the new lifts do not satisfy the Brayton fire code.",
     [("not satisfy", "polarity", "meet")]),
    # an object's 'no' negates its verb
    (["Researchers observed no serious side effects in the Pell trial."],
     "Researchers recorded serious side effects in the Pell trial.",
     [("recorded serious side effects", "polarity", "observed no")]),
])
def test_a_flipped_verb_with_the_same_parties_is_found(evidence, answer, found):
    assert _flipped(evidence, answer) == found


@pytest.mark.parametrize("evidence, answer", [
    (["The inspection found that staff were inadequately trained."],
     "Inspectors concluded that its staff had not been adequately trained."),    # the negation scopes the adverb
    (["Every member of the Corbin choir passed the regional audition."],
     "No member of the Corbin choir failed the regional audition."),             # a negated party: two flips
    (["The pavilion will reopen in June after a two-year renovation."],
     "The pavilion will not reopen until June."),                                # a limiting word
    (["The species is recovering, the botanist said."], "The botanist said the species may not recover."),  # a modal
    (["The board plans to renew its contract with Pellmont."],
     "The board did not renew its contract with Pellmont."),                    # a plan is not a deed
    (["Prices rose in May and fell in June, the agency said."], "Prices fell in June, the agency said."),
    (["Ridership on the ferry rose last year."], "Ridership on the ferry did not fall last year."),  # two flips
    (["The pilots accepted the new contract."], "The pilots did not accept the first offer."),       # another object
    (["The council approved the bridge."], "The council did not only approve the bridge but funded it too."),
    (["The museum closed in March."], "Did the museum not close in March?"),    # a question
    (["Inspectors said the new lifts do not meet the Brayton fire code."],
     "The new lifts fail to satisfy the Brayton fire code, inspectors said."),   # the same relation, negated twice
    (["Researchers did not observe serious side effects in the Pell trial."],
     "In the Pell trial researchers noted no serious side effects."),            # 'no' and 'not' say the same
])
def test_meaning_kept_or_unasserted_is_no_flip(evidence, answer):
    assert _flipped(evidence, answer) == []


def test_only_sentences_holding_the_verb_or_its_opposite_are_parsed():
    evidence, answer = parse_texts(["Ridership on the ferry rose last year. The ferry was painted blue in May.",
                                    "Ridership on the ferry fell last year."], progress=False)
    [a] = sentence_views(answer)
    chosen = flip_candidates(a, evidence_views(evidence), lexicon())
    assert [e.doc.text[e.start:e.end] for e in chosen] == ["Ridership on the ferry rose last year."]


def test_the_rule_shows_the_flip_but_no_fitted_count_moves(monkeypatch):
    from evidencechain.features.semantic import table

    pair = ("Dr. Maren Okafor said the rare marsh orchid was found growing in two new locations this spring. "
            "She said the discovery suggests the species is recovering.",
            "According to botanist Maren Okafor, the rare marsh orchid's appearance at two further spots this spring "
            "indicates that the species is not recovering.")
    answer, sentences, tokens = semantic_table(*pair)
    shown = tokens.index[tokens["semantic_confident"] > 0]
    assert [answer.token_text(i) for i in shown] == ["not", "recovering"]
    assert set(tokens.loc[shown, "semantic_class"]) == {"polarity"}
    assert set(tokens.loc[shown, "semantic_evidence"]) == {"recovering"}
    monkeypatch.setattr(table, "flips_of", lambda pairs, cache: [[] for _ in pairs])
    _, plain_sentences, plain_tokens = semantic_table(*pair)
    assert not plain_tokens["semantic_confident"].any()
    pd.testing.assert_frame_equal(sentences, plain_sentences)
    assert tokens["semantic_conflict"].tolist() == plain_tokens["semantic_conflict"].tolist()


@pytest.mark.parametrize("evidence, answer", [
    (["Shares in Halloway Mutual fell 6 percent on Tuesday.", "Rival lender Corrin Savings gained 2 percent."],
     "On Tuesday, shares in rival lender Corrin Savings rose 2 percent, while Halloway Mutual lost 6 percent."),
    (["The Selby Road depot will close on 14 March.", "Its replacement, the Kinmoor depot, opens on 2 April."],
     "Routes 7 and 9 will move to the Kinmoor depot, which opens on 2 April."),
    (["The coach said that the Wexley striker had not broken his ankle in training."],
     "The coach denied that the Wexley striker had broken his ankle in training."),
])
def test_another_named_party_or_a_denial_is_no_flip(evidence, answer):
    assert _flipped(evidence, answer) == []


FAITHFUL = [  # real faithful answers of tuning data (`make semantic-firing`) that a first version flagged
    (["Ahead of the trial, CNN spoke with several people whose lives were changed because of the shooting.", "O'Farrill: \"I don't think the shooting has defined me as a person.", "Bailey: \"I would say that the theater shooting is life-changing, but I don't think it defines me.\""],
     "Survivors say the shooting changed their lives, but doesn't define it."),  # halueval_summaries: n't define / defined
    (["Both Bush and Emerson enjoyed watching  Kevin Anderson of South Africa battle Jeremy Chardy of France before heavy rains postponed the game."],
     "Back in December, Bush, who suffers from Parkinson's, was hospitalized for shortness of breath for about a week."),  # halueval_summaries: suffers / enjoyed
    (["Tyreke Evans had 19 points and 11 assists, and Eric Gordon added 14 points for New Orleans, which had to win to make the post-season because Oklahoma City also won in Minnesota.", "Oklahoma City's Russell Westbrook scored 37 points in the Thunder's 138-113 victory over Minnesota that was rendered moot by New Orleans' play-off-clinching win over San Antonio.", "In other games, Kyle Lowry scored 26 points as the Toronto Raptors finished the regular season with a club record 49th victory, beating the Charlotte Hornetts 92-87, the Chicago Bulls came back to beat the Atlanta Hawks 91-85 and the Boston Celtics defeated the Milwaukee Bucks 105-100."],
     "Oklahoma City Thunder's defeated Minnesota Timberwolves 138-113."),  # halueval_summaries: defeated / won
    (["Bridget Olinda Garcia, 32, from Port St. Lucie, Florida, had confiscated her 13-year-old's mobile phone and was leaving the house with his three siblings when the teen jumped on the hood.", "Garcia was taking the teen's three siblings (pictured) on an errand when her oldest child jumped on the hood, police say."],
     "When she stopped, teen son fell off and injured his hip, knee and foot."),  # halueval_summaries: fell / jumped
    (["Doherty, who won the title in 1997, won four of the final five frames of the morning session after trailing 3-1 at one stage against 29-year-old Evans, a single mum from Dudley who is bidding to become the first woman to appear in the main stages of the world finals at The Crucible."],
     "She lost the first frame  71-15 against the 1997 World Champion."),  # halueval_summaries: lost / won
    (["At Waterloo Napoleon did surrender,\u2019 sang Sweden\u2019s fab four in their famous Eurovision Song Contest winner.", "If Benny and Bjorn actually laboured under this surrendering misapprehension when they wrote their song (songwriters are not hot on facts \u2013 happy to say anything as long as it rhymes), they would have discovered the truth when they subsequently paid a visit to the Wellington Museum in Waterloo, just south of Brussels in Belgium.", "Napoleon certainly didn\u2019t surrender at Waterloo.", "But while the British know what happened when Napoleon met his Waterloo, the French-speaking world is less convinced.", "It is unfortunate for anniversary-celebrating purposes that Waterloo lies in the French half where the locals are preparing to mark the bicentenary of the Battle of Waterloo \u2013 with Napoleon as the unchallenged star of the show.", "At Waterloo Napoleon did surrender!'", "Abba pictured in the town of Waterloo, Belgium in 1974."],
     "Contrary to the Abba  song, Napoleon did not surrender at Waterloo."),  # halueval_summaries: not surrender / surrender
    (["At the school's internal investigating meeting Cudjoe-Calvocoressi admitted that he had exposed himself - but said that he\u00a0did not realise he was causing distress.", "The woman filmed Cudjoe-Calvocoressi when he exposed himself on the train, leading to his conviction.", "In all the circumstances I agree with the panel's\u00a0recommendation that Mr Cudjoe-Calvocoressi be allowed to apply for the order\u00a0to be set aside on or after 29 July 2019.'", "The ban means that he is prohibited from teaching and cannot\u00a0teach in any school, sixth form college, relevant youth accommodation or\u00a0children's home in England.", "In a decision\u00a0imposed on behalf of the Education Secretary it was held that Cudjoe-Calvocoressi should be allowed to apply to return to teaching in 2019 when the five-year order that he signs the Sex\u00a0Offenders Register comes to an end."],
     "Cudjoe-Calvocoressi has been banned from teaching following hearing."),  # halueval_summaries: banned / allowed
    (["She is featured as main character Daffy Duck's blonde girlfriend in several cartoon shorts but is only referred to as Melissa in one, \"The Scarlet Pumpernickel\", where she is voiced by Marian Richman."],
     "Daffy Duck was not voiced by Marian Richman."),  # anli_entailment: not voiced / voiced
    (["Monmouth Methodist Church is located in Monmouth, south east Wales.", "It is set well back from St James Street between buildings."],
     "Monmouth Methodist Church is not located on St James Street."),  # anli_entailment: not located / located
    (["Sherwood Stewart (born June 6, 1946, in Goose Creek, Texas, United States) played amateur and professional tennis in the 1970s and 1980s.", "Stewart was ranked as high as No. 60 in the world in singles on the ATP Rankings on December 31, 1978, and No. 4 in doubles on January 3, 1983."],
     "Sherwood Stewart was never ranked higher than 50 in the ATP singles rankings."),  # anli_entailment: never ranked / ranked
    (["Frizz is often caused by dryness, so it's important to restore moisture to your hair in the shower."],
     "Frizz is not caused by dryness 100% of the time, or in all cases."),  # anli_entailment: not caused / caused
    (["Vic did not appear on the cover of any MEGADETH albums or compilations from 1991 to 2000."],
     "The front cover marked the debut of band mascot Vic Rattlehead, who regularly appeared on subsequent album artwork."),  # wice_supported: appeared / did not appear
    (["David Cameron has a 'secret plan' to cut taxes for millionaires after the General Election, Ed Balls claimed today as Labour ramped up its attack on the eighth day of campaigning.", "Ed Balls, speaking in Leeds this morning, ramped up his attack on the Tories today - claiming that David Cameron was planning a VAT increase and cuts to the top rate of tax.", "Mr Cameron has claimed that Labour are planning to increase taxes by \u00a33,028 on 'every working family'. .", "But, speaking in Leeds this morning, Mr Balls predicted that a Conservative government would hike VAT - something Mr Cameron has explicitly ruled out - and cut the top rate of income tax for earnings over \u00a3150,000 from 45p to 40p.", "Tory Treasury minister David Gauke hit back with an accusation that Labour has a secret plan to boost revenues by dragging more workers into the 40p higher rate of income tax and increasing national insurance contributions.", "Liberal Democrat leader Nick Clegg blasted Labour's policies as 'economically illiterate', but also warned that Chancellor George Osborne was 'a very dangerous man' because of his plan to balance the books by spending cuts alone.", "Mr Cameron and Mr Osborne, who cut the top rate of income tax from 50p to 45p in his 2012 Budget, each refused to rule out a further cut to 40p in comments on Sunday. .", "The Labour shadow chancellor unveiled a poster claiming voters had lost \u00a31,100 each due to tax and benefit changes under the coalition with 'millions paying more while millionaires pay less'  Mr Balls predicted that a Conservative government would hike VAT - something Mr Cameron has explicitly ruled out - and cut the top rate of income tax for earnings over \u00a3150,000 from 45p to 40p.", "Mr Balls said: 'We know that is their secret plan - another big tax cut for millionaires. '", "How can it be fair when families here in Leeds and across the country are struggling and \u00a31,100 a year worse-off? 'How can it be fair to have a tax cut for the very richest when our NHS is in crisis and going backwards? 'How can this be fair when we need to get the deficit down and the Tories are now planning deeper cuts in the next three years than the last five?'", "Mr Balls said a cut in the top rate to 40p would save someone earning \u00a31 million a year \u00a3340,000 over the course of the next Parliament, while someone with income of \u00a35 million would get a total tax cut of \u00a31.94 million over the five-year period.", "Meanwhile, he said that unfunded Conservative plans to cut \u00a310 million from income tax by raising thresholds for the 20p and 40p rates would require the equivalent of a two-point rise in VAT, costing an average couple with children \u00a31,440 over four years.", "Liberal Democrat leader Nick Clegg blasted Labour's policies as 'economically illiterate', but also warned that Chancellor George Osborne was 'a very dangerous man' Voters would not believe Mr Cameron's denial that he intends to increase the consumption tax, because Conservatives had 'a track record of breaking their promises on VAT', he said.", "Mr Gauke said: 'Ed Balls and Ed Miliband must set out the details of their secret plan for GBP3,028 of tax rises on every working family - the British people have a right to know what these tax hikes are.", "Lower taxes under David Cameron.", "Mr Balls insisted that Labour will not raise VAT, national insurance or the basic and higher rates of income tax if it wins the general election.", "He said millions of people would get a tax cut worth almost \u00a3400 from a Liberal Democrat pledge to push the income tax personal allowance to \u00a312,500. .", "Labour has already failed to commit the \u00a38 billion needed for the NHS, and are now failing to give taxpayers the tax cut they deserve.'", "None of our manifesto commitments will require a single pound of extra borrowing ... 'So this is the choice at the election, a choice between a Conservative Party which has a track record of breaking their promises on VAT and will raise it again after the election or a Labour Party which has never raised VAT and will not raise VAT in the next Parliament. '", "On a campaign visit to Surbiton, south-west London, Mr Clegg said that Liberal Democrats had blocked Tory plans to cut the top rate of income tax from 50p to 40p during the coalition.", "Conservative ministers were 'always more interested in tax cuts for people at the top rather than tax cuts for people at the bottom or the middle', Mr Clegg told Sky News. 'I was very amused yesterday to hear George Osborne and David Cameron saying with earnest sincerity that they had no plan of giving further tax cuts to people at the top because, I tell you, they had exactly that plan in government and it was something that we said we would not go along with.'"],
     "He has claimed Labour are planning to increase taxes by \u00a3 3,028 on' every working family' But Mr Balls predicted a Conservative government would hike VAT and cut top rate of income tax for earnings over \u00a3 150,000 from 45p to 40p."),  # cliff_val_correct: cut / raise
    (["Diego Maradona works on his fitness by taking part in some boxing training .", "Maradona looks into the camera after finishing his short work out.", "But now the 54-year old \u2013 who has not worked since leaving United Arab Emirates club Al-Wasl in 2012 \u2013 was busy keeping fit by hitting a boxing dummy."],
     "Maradona has not worked since leaving United Arab Emirates club Al - Wasl in 2012."),  # cliff_val_correct: not worked / works
    (["David Cameron has a 'secret plan' to cut taxes for millionaires after the General Election, Ed Balls claimed today as Labour ramped up its attack on the eighth day of campaigning.", "The Labour shadow chancellor unveiled a poster claiming voters had lost \u00a31,100 each due to tax and benefit changes under the coalition with 'millions paying more while millionaires pay less'  Mr Balls predicted that a Conservative government would hike VAT - something Mr Cameron has explicitly ruled out - and cut the top rate of income tax for earnings over \u00a3150,000 from 45p to 40p.", "Liberal Democrat leader Nick Clegg blasted Labour's policies as 'economically illiterate', but also warned that Chancellor George Osborne was 'a very dangerous man' Voters would not believe Mr Cameron's denial that he intends to increase the consumption tax, because Conservatives had 'a track record of breaking their promises on VAT', he said.", "Lower taxes under David Cameron.", "Labour has already failed to commit the \u00a38 billion needed for the NHS, and are now failing to give taxpayers the tax cut they deserve.'"],
     "Prime Minister has claimed Labour will increase taxes by \u00a3 3,028."),  # cliff_val_correct: increase / cut
    (["Ronny Deila insists Celtic will not risk their Champions League aspirations by embarking on another gruelling pre-season travel schedule.", "Deila says Celtic won't be travelling as much in pre-season as they look to qualify for the group stages."],
     "Celtic travelled to the United States, Austria and Germany last pre-season."),  # halueval_summaries (--limit 1000): travelled / wo n't be travelling
    (["Jesus Christ was not a real person and is probably the result of a combination of stories about several different individuals, according to a writer and leading atheist activist.", "David Fitzgerald, a San Francisco based author, believes he has compiled compelling evidence that proves Jesus did not exist.", "Historical researcher Michael Paulkovich has claimed that Jesus of Nazareth did not exist after being unable to find any verifiable mention of Christ in historical texts by 126 writers during the \u2018time of Jesus\u2019 from the first to third centuries.", "When I consider those 126 writers, all of whom should have heard of Jesus but did not - and Paul and Marcion and Athenagoras and Matthew with a tetralogy of opposing Christs, the silence from Qumram and Nazareth and Bethlehem, conflicting Bible stories, and so many other mysteries and omissions - I must conclude that Christ is a mythical character,\u2019 he writes.", "Mr Fitzgerald, whose first book 'Nailed: Ten Christian Myths that Show Jesus Never Existed at All' was published in 2010, believes it is no longer reasonable to assume there has to be a single historic figure who began Christianity.", "Mr Fitzgerald said: 'There is nothing implausible to think that Jesus was a real person, but I just don't think that he can have been a single person if he existed at all. '"],
     "Atheist writer David Fitzgerald claims there is no evidence Jesus existed."),  # halueval_summaries (--limit 1000): existed / did not exist
    (["Increasing opposition to a \u00a3175 million \u2018garden bridge\u2019 championed by Boris Johnson could scupper the mayor\u2019s plans for a new green space spanning the Thames.", "They want lawmakers to look into the misuse of public funds.", "When the project first began it was promised it would be paid for in its entirety through private funds.", "\u00a360 million of public money has been pledged by Boris Johnson and George Osborne - \u00a330 million each \u2013 for the project.", "Those opposed to the bridge garden have accused the Mayor and the Chancellor of disregarding guidelines while using money meant for public transport which would not normally benefit such a small group of people.", "The Director of the Waterloo Community Development group, Michael Ball, has said the \u00a3175 million could fund 30 million new London parks or the equivalent of 30 times the area of open space the bridge would give.", "He highlighted the mayor\u2019s previous statements that public money would not be used for the bridge only to reveal last month that public funds would be needed in perpetuity to underwrite the bridge\u2019s yearly \u00a33.5 million maintenance bill.", "George Osborne (left) and Boris Johnson (centre) have promised \u00a330 million each for the scheme which\u00a0Michael Ball (right) has called a vanity project.", "It was recently put forward by the London Assembly that the public have free access to the proposed bridge, considering how much taxpayers\u2019 money was being used for it."],
     "George Osborne and the mayor have promised \u00a360 million in funds but opponents say the public won't have access."),  # halueval_summaries (--limit 1000): n't have / have
    (["Originally composed by Mehdi Zaheer for Iqbal Bano, a premier Pakistani ghazal and semi-classical singer."],
     "iqbal did not compose yaad"),  # anli_entailment (--limit 1000): not compose / composed
]


@pytest.mark.parametrize("evidence, answer", FAITHFUL)
def test_faithful_real_answers_are_no_flip(evidence, answer):
    assert _flipped(evidence, answer) == []
