"""Writes libs/audio/models/stemdeck-masknet.json: the run that made the committed model, and regression floors.

  python card.py <run dir> <card.json> '<floors json>' [--stageN]
Floors are what the unit test holds the runner to on libs/audio/models/regression (6 s of a dev song):
the SDR measured on the exported model minus a margin, per engine and stem — the last line `npm run bench:floors`
prints once the model is copied into libs/audio/models. With --stageN (N ≥ 2)
the run is a fine-tuning stage (train.py --resume, a validation set beside dev); the card keeps the earlier
stages' summaries ("stage1" … the stage before: what the card described before) and describes this run.
"""
import json
import os
import re
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
# The stage a --stageN flag names (the latest if several), stage 1 without one.
stage = max((int(a[len("--stage"):]) for a in sys.argv[1:] if re.fullmatch(r"--stage\d+", a)), default=1)
finetuned = stage > 1
# Stages whose checkpoint rule kept the network they started from (nothing was shipped): the card has no summary of
# them, and the stage after starts from the network before them.
NOT_TAKEN = {15}
start = stage - 1
while start in NOT_TAKEN:
    start -= 1
run, dst, floors = args[0], args[1], json.loads(args[2])
curves = json.load(open(os.path.join(run, "curves.json")))
config = json.load(open(os.path.join(run, "config.json"))) if os.path.exists(os.path.join(run, "config.json")) else {}
with_val = bool(curves.get("val_mean"))
with_remix = bool(curves.get("val_remix_mean"))
# train.py's choice: the mean of the curves the run recorded (dev, and validation, and remixed validation).
chosen = ["dev_mean"] + (["val_mean"] if with_val else []) + (["val_remix_mean"] if with_remix else [])
best = max(range(len(curves["dev_mean"])), key=lambda i: sum(curves[name][i] for name in chosen) / len(chosen))
checkpoint = {"step": curves["step"][best], "devMeanSdr": curves["dev_mean"][best]}
if with_val:
    checkpoint["valMeanSdr"] = curves["val_mean"][best]
if with_remix:
    checkpoint["valRemixedMeanSdr"] = curves["val_remix_mean"][best]
# The seed of the wide set each stage from 6 on added: 5 and 6 for stages 6 and 7, then the stage's own number
# (seed 7 is the validation remix's), as the training script's wideSet(stage).
later_wide_seed = {6: 5, 7: 6}.get(stage, stage)
card = {
    "model": "stemdeck-masknet",
    "contract": "input magnitude [1,2,T,2049] (|STFT| left, right; 44.1 kHz, sqrt-Hann 4096, hop 1024) -> masks [1,4,T,2049] (vocals, drums, bass, other; softmax)",
    "recipe": "npm run train:separation" + {1: "", 2: " -- --finetune"}.get(stage, f" -- --stage{stage}") + " (tools/separation-model/README.md)",
    "trainingSet": {
        1: "bench/src/eval-set --set train --count 160 --seconds 15 --seed 1 (dev source family only)",
        2: "stage 2: bench/src/eval-set --set tempo --count 50 --seconds 20 --seed 1 and 2 (dev sources) + --set wide --count 160 --seconds 15 --seed 1 (neither dev nor held-out sources); validation --set wide --count 8 --seconds 20 --seed 2",
        3: "stage 3, from stage 2's network: bench/src/eval-set --set tempo --count 50 --seconds 20 --seed 1 and 2 (dev sources) + --set wide --count 160 --seconds 15 --seed 1 and --set wide --count 88 --seconds 30 --seed 3 (neither dev nor held-out sources); validation --set wide --count 8 --seconds 20 --seed 2",
        4: "stage 4, from stage 3's network: bench/src/eval-set --set tempo --count 50 --seconds 20 --seed 1 and 2 (dev sources) + --set wide --count 160 --seconds 15 --seed 1 and --set wide --count 88 --seconds 30 --seed 3 and 4 (neither dev nor held-out sources); validation --set wide --count 8 --seconds 20 --seed 2",
        5: "stage 5, from stage 4's network: the same sets as stage 4, every stem's mixing varied while training (a pan with probability 0.5, a room with probability 0.3: data.MixAugment); validation --set wide --count 8 --seconds 20 --seed 2, as made and remixed (every stem panned and given a room, seed 7)",
        12: "stage 12, from stage 11's network: bench/src/eval-set --set tempo --count 50 --seconds 20 --seed 1 and 2 (dev sources) + --set wide --count 160 --seconds 15 --seed 1 and --set wide --count 88 --seconds 30 --seed 9, 10 and 11 (the first wide family; its sets 3-8 left out for memory) + --set wide2 --count 88 --seconds 30 --seed 1, 3 and 4 (the second training family: freepats through timidity, avldrums kits, festival speakers; neither dev, held-out nor the first family's sources), stage 11's mixing; validation --set wide --count 8 --seconds 20 --seed 2 and --set wide2 --count 8 --seconds 20 --seed 2 together, as made and remixed (seed 7)",
        13: "stage 13, from stage 12's network: bench/src/eval-set --set tempo --count 50 --seconds 20 --seed 1 and 2 (dev sources) + --set wide --count 160 --seconds 15 --seed 1 and --set wide --count 88 --seconds 30 --seed 9 (the first wide family; its sets 3-8, 10 and 11 left out for memory) + --set wide2 --count 88 --seconds 30 --seed 1, 3 and 4 (the second training family) + --set wide3 --count 88 --seconds 30 --seed 1, 3 and 4 (the third training family: a Csound orchestra of synthesized instruments and FOF singing, Hydrogen's sampled kits; none of the other sets' sources), stage 12's mixing; validation --set wide, wide2 and wide3 --count 8 --seconds 20 --seed 2 together, as made and remixed (seed 7)",
        14: "stage 14, from stage 13's network: bench/src/eval-set --set tempo --count 50 --seconds 20 --seed 1 and 2 (dev sources) + --set wide --count 160 --seconds 15 --seed 1 (the first wide family) + --set wide2 and --set wide3 --count 88 --seconds 30 --seed 1 and 3 (the second and third training families; their seed-4 sets and the first family's 88-song sets left out for memory) + --set wide4 --count 88 --seconds 30 --seed 1, 3 and 4 (the fourth training family: Sonivox EAS's General MIDI wavetable, Hydrogen's sampled kits; none of the other sets' sources), stage 13's mixing; validation --set wide, wide2 and wide3 --count 8 --seconds 20 --seed 2 together, as made and remixed (seed 7): the earlier families only, none of the new family's songs (the rule fixed before the run)",
        16: "stage 16, from stage 14's network (stage 15's rule kept it): stage 14's sets with --set wide4 --seed 4 replaced by --set wide5 --count 88 --seconds 30 --seed 1 (the fifth training family: single recordings from LMMS's and Sonic Pi's sample libraries through our pitched sampler, kits of their one-shots; none of the other sets' sources), stage 14's mixing; validation --set wide, wide2 and wide3 --count 8 --seconds 20 --seed 2 together, as made and remixed (seed 7): none of the new family's songs",
        17: "stage 17, from stage 16's network: stage 16's sets with --set wide5 --seed 1 replaced by --set wide6 --count 88 --seconds 30 --seed 1 (the sixth training family: the fourth family's sounds, half its vocals words sung to the melody by festival's singing mode, a kind of vocal no other set has), stage 16's mixing; validation --set wide, wide2 and wide3 --count 8 --seconds 20 --seed 2 together, as made and remixed (seed 7): none of the new family's songs",
    }.get(stage) or (
        # Stages 6 on: the stage before's sets and mixing plus one more wide set.
        f"stage {stage}, from stage {start}'s network: stage {start}'s sets and mixing plus --set wide --count 88 --seconds 30 "
        f"--seed {later_wide_seed} (neither dev nor held-out sources); validation --set wide --count 8 --seconds 20 --seed 2, "
        "as made and remixed (seed 7)"
    ),
    "seed": config.get("seed", 16),
    "hidden": config.get("hidden"),
    "stepsRun": config.get("steps", curves["step"][-1]),
    "checkpoint": checkpoint,
    "checkpointChoice": (f"mean of dev, validation and remixed validation mean SDR (step 0 is stage {start}'s network)" if with_remix
                         else f"mean of dev and validation mean SDR (step 0 is stage {start}'s network)" if with_val else "dev mean SDR"),
    "machine": "2-core CPU (jax 0.10.2, CPU)",
    "curves": curves,
    "regression": floors,
}
SUMMARY = ("recipe", "trainingSet", "seed", "hidden", "stepsRun", "checkpoint", "checkpointChoice", "machine", "curves", "regression")
if finetuned:
    previous = json.load(open(dst))
    summary = {k: previous[k] for k in SUMMARY if k in previous}
    for earlier in (s for s in range(1, stage) if s not in NOT_TAKEN):
        card[f"stage{earlier}"] = previous.get(f"stage{earlier}") or summary
json.dump(card, open(dst, "w"), indent=1)
print(f"wrote {dst}")
