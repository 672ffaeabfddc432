"""Writes libs/audio/models/stemdeck-masknet.json: the run that made the committed model, and regression floors.

  python card.py <run dir> <card.json> '<floors json>' [--stage2]
Floors are what the unit test holds the runner to on libs/audio/models/regression (6 s of a dev song):
the SDR measured on the exported model minus a margin, per engine and stem. With --stage2 the run is the
second stage (train.py --resume, a validation set beside dev); the card keeps stage 1's summary under
"stage1" and describes the fine-tuning run.
"""
import json
import os
import sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
stage2 = "--stage2" in sys.argv
run, dst, floors = args[0], args[1], json.loads(args[2])
curves = json.load(open(os.path.join(run, "curves.json")))
config = json.load(open(os.path.join(run, "config.json"))) if os.path.exists(os.path.join(run, "config.json")) else {}
with_val = bool(curves.get("val_mean"))
score = (lambda i: 0.5 * (curves["dev_mean"][i] + curves["val_mean"][i])) if with_val else (lambda i: curves["dev_mean"][i])
best = max(range(len(curves["dev_mean"])), key=score)
checkpoint = {"step": curves["step"][best], "devMeanSdr": curves["dev_mean"][best]}
if with_val:
    checkpoint["valMeanSdr"] = curves["val_mean"][best]
card = {
    "model": "stemdeck-masknet",
    "contract": "input magnitude [1,2,T,2049] (|STFT| left, right; 44.1 kHz, sqrt-Hann 4096, hop 1024) -> masks [1,4,T,2049] (vocals, drums, bass, other; softmax)",
    "recipe": "npm run train:separation" + (" -- --finetune" if stage2 else "") + " (tools/separation-model/README.md)",
    "trainingSet": (
        "stage 2: bench/src/eval-set --set tempo --count 50 --seconds 20 --seed 1 and 2 (dev sources) + --set wide --count 160 --seconds 15 --seed 1 (neither dev nor held-out sources); validation --set wide --count 8 --seconds 20 --seed 2"
        if stage2
        else "bench/src/eval-set --set train --count 160 --seconds 15 --seed 1 (dev source family only)"
    ),
    "seed": config.get("seed", 16),
    "hidden": 192 if stage2 else config.get("hidden"),
    "stepsRun": config.get("steps", curves["step"][-1]),
    "checkpoint": checkpoint,
    "checkpointChoice": "mean of dev and validation mean SDR (step 0 is stage 1's network)" if with_val else "dev mean SDR",
    "machine": "2-core CPU (jax 0.10.2, CPU)",
    "curves": curves,
    "regression": floors,
}
if stage2:
    previous = json.load(open(dst))
    card["stage1"] = previous.get("stage1") or {k: previous[k] for k in ("recipe", "trainingSet", "seed", "hidden", "stepsRun", "checkpoint", "machine", "curves") if k in previous}
json.dump(card, open(dst, "w"), indent=1)
print(f"wrote {dst}")
