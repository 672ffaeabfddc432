"""Reads the weights back out of an exported network (export_onnx.py) as a params.npz train.py can resume from.

  python onnx_to_params.py ../../libs/audio/models/stemdeck-masknet.onnx runs/from-onnx/params.npz

The export folds the input standardisation into the first layer, so the params come back with mean 0 and
std 1 and the folded first layer: the same function, exactly (fine-tuning then adjusts the folded weights).
"""
import sys

import numpy as np
import onnx
from onnx import numpy_helper

import model as M


def params_of(path):
    weights = {t.name: numpy_helper.to_array(t) for t in onnx.load(path).graph.initializer}
    blocks = []
    for i in range(len(M.DILATIONS)):
        w = weights[f"conv{i}_w"]  # [out, in, 3]
        blocks.append({"w": np.ascontiguousarray(np.transpose(w, (2, 1, 0))).astype(np.float32), "b": weights[f"conv{i}_b"].astype(np.float32)})
    f2 = weights["w_in"].shape[0]
    return {
        "mean": np.zeros((f2,), np.float32),
        "std": np.ones((f2,), np.float32),
        "w_in": weights["w_in"].astype(np.float32),
        "b_in": weights["b_in"].astype(np.float32),
        "blocks": blocks,
        "w_out": weights["w_out"].astype(np.float32),
        "b_out": weights["b_out"].astype(np.float32),
    }


def main():
    src, dst = sys.argv[1], sys.argv[2]
    np.savez(dst, params=np.array(params_of(src), dtype=object))
    print(f"wrote {dst}")


if __name__ == "__main__":
    main()
