"""Scores a network on evaluation excerpts as train.py's curves do, as they are and remixed (data.remixed).

  python score.py <model.onnx | params.npz> <set dir> [<set dir> ...] [--remix SEED] [--tracks 8] [--seconds 20]

Mean global SDR per stem on the first N tracks' first S seconds; with --remix, also with every stem panned
and given a room (drawn from SEED): how much a network leans on the generator's own mixing. Never pass it
a held-out set while choosing anything.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

import data
import model as M
from train import dev_sdr


def load_params(path):
    if not path.endswith(".onnx"):
        return {k: v for k, v in np.load(path, allow_pickle=True)["params"].item().items()}
    scratch = tempfile.mkdtemp()
    try:
        out = os.path.join(scratch, "params.npz")
        subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "onnx_to_params.py"), path, out], check=True)
        return {k: v for k, v in np.load(out, allow_pickle=True)["params"].item().items()}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("sets", nargs="+")
    p.add_argument("--remix", type=int, default=None)
    p.add_argument("--tracks", type=int, default=8)
    p.add_argument("--seconds", type=float, default=20)
    args = p.parse_args()
    params = load_params(args.model)
    n = int(args.seconds * M.SAMPLE_RATE)
    for root in args.sets:
        excerpts = [{"ref": t["stems"][:, :, :n], "mix": t["stems"][:, :, :n].sum(axis=0)} for t in data.load_set(root, limit=args.tracks)]
        variants = [("as made", excerpts)] + ([(f"remixed (seed {args.remix})", data.remixed(excerpts, args.remix))] if args.remix is not None else [])
        for name, chosen in variants:
            scores = dev_sdr(params, chosen)
            print(f"{root} {name}: " + " ".join(f"{s} {x:.2f}" for s, x in zip(M.SOURCES, scores)) + f"  mean {scores.mean():.2f}", flush=True)


if __name__ == "__main__":
    main()
