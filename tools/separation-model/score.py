"""Scores a network on evaluation excerpts as train.py's curves do, as they are and remixed (data.remixed).

  python score.py <model.onnx | params.npz> <set dir> [<set dir> ...] [--remix SEED] [--tracks 8] [--seconds 20]

Mean global SDR per stem on the first N tracks' first S seconds; with --remix, also with every stem panned
and given a room (drawn from SEED): how much a network leans on the generator's own mixing. Never pass it
a held-out set while choosing anything.
"""
import argparse

import data
import model as M
from onnx_to_params import params_of
from train import dev_sdr, load_params, score_line


def main():
    p = argparse.ArgumentParser()
    p.add_argument("model")
    p.add_argument("sets", nargs="+")
    p.add_argument("--remix", type=int, default=None)
    p.add_argument("--tracks", type=int, default=8)
    p.add_argument("--seconds", type=float, default=20)
    args = p.parse_args()
    params = params_of(args.model) if args.model.endswith(".onnx") else load_params(args.model)
    n = int(args.seconds * M.SAMPLE_RATE)
    for root in args.sets:
        excerpts = data.excerpts(data.load_set(root, limit=args.tracks), n)
        variants = [("as made", excerpts)] + ([(f"remixed (seed {args.remix})", data.remixed(excerpts, args.remix))] if args.remix is not None else [])
        for name, chosen in variants:
            print(f"{root} {name}: " + score_line(dev_sdr(params, chosen)), flush=True)


if __name__ == "__main__":
    main()
