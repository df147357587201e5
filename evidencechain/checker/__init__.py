"""The learned support checker: training pairs (pairs, perturb, windows), the MiniLM model with
a 3-way verdict head and a token head (model), its trainer (train), batched scoring (infer), and
`evidencechain checker train` (config, pipeline). torch and transformers come from the `neural`
extra; everything here imports them lazily, so configs validate without them."""
