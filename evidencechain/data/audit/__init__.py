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
  * a *draft* of a source holds the Source record and its *facts* (`facts`); the builders
    `yelp`, `marco` and `news` make drafts from the vocabularies in `vocab/` and the
    templates in `templates/`;
  * a response (`respond`) renders 2-5 facts through frames chosen per generator label,
    then adds NO-INFO sentences (greetings, hedges, refusals, questions back, closing offers;
    `tier = "no_info"` in `sentence_meta`) at rates per label, from their own random stream;
  * a corruption (`inject`) replaces one slot value by an alternative of the same kind that
    the source never mentions (Conflict, `alternatives`), or appends/inserts a clause or
    sentence the source does not support (Baseless Info, `baseless`).
All randomness flows from `random.Random` instances seeded by strings derived from `seed`.
"""
from .corpus import generate_audit_corpus
from .plan import MODEL_RATES, MODELS, TASK_PLAN, TASK_RATES, cell_rates
from .readme import write_audit_corpus

__all__ = ["MODELS", "MODEL_RATES", "TASK_PLAN", "TASK_RATES", "cell_rates",
           "generate_audit_corpus", "write_audit_corpus"]
