"""Writes libs/audio/models/stemdeck-masknet.json: the run that made the committed model, and regression floors.

  python card.py <run dir> <card.json> '<floors json>'
Floors are what the unit test holds the runner to on libs/audio/models/regression (6 s of a dev song):
the SDR measured on the exported model minus a margin, per engine and stem.
"""
import json
import os
import sys

run, dst, floors = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
curves = json.load(open(os.path.join(run, "curves.json")))
config = json.load(open(os.path.join(run, "config.json"))) if os.path.exists(os.path.join(run, "config.json")) else {}
best = max(range(len(curves["dev_mean"])), key=lambda i: curves["dev_mean"][i])
card = {
    "model": "stemdeck-masknet",
    "contract": "input magnitude [1,2,T,2049] (|STFT| left, right; 44.1 kHz, sqrt-Hann 4096, hop 1024) -> masks [1,4,T,2049] (vocals, drums, bass, other; softmax)",
    "recipe": "npm run train:separation (tools/separation-model/README.md)",
    "trainingSet": "bench/src/eval-set --set train --count 160 --seconds 15 --seed 1 (dev source family only)",
    "seed": config.get("seed", 16),
    "hidden": config.get("hidden"),
    "stepsRun": config.get("steps", curves["step"][-1]),
    "checkpoint": {"step": curves["step"][best], "devMeanSdr": curves["dev_mean"][best]},
    "machine": "2-core CPU shared with other work (jax 0.10.2, CPU)",
    "curves": curves,
    "regression": floors,
}
json.dump(card, open(dst, "w"), indent=1)
print(f"wrote {dst}")
