"""Writes a trained params.npz as the ONNX graph the studio runs (opset 17, float32).

  python export_onnx.py runs/v1/params.npz libs/audio/models/stemdeck-masknet.onnx

Contract (read by libs/audio/src/separation/model): input "magnitude" [1, 2, T, F] (|STFT| of the left
and right channels: 44.1 kHz, sqrt-Hann window of 4096, hop 1024, F = 2049), output "masks" [1, 4, T, F]
(vocals, drums, bass, other; softmax, so a cell's four masks add up to one). T is dynamic.
The input standardisation is folded into the first layer's weights.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

import model as M


def build(params):
    F, H = M.BINS, params["w_in"].shape[1]
    mean, std = np.asarray(params["mean"], np.float64), np.asarray(params["std"], np.float64)
    w_in = np.asarray(params["w_in"], np.float64)
    # (x - mean) / std @ W + b  ==  x @ (W / std) + (b - (mean / std) @ W)
    w_fold = (w_in / std[:, None]).astype(np.float32)
    b_fold = (np.asarray(params["b_in"], np.float64) - (mean / std) @ w_in).astype(np.float32)
    init = [
        numpy_helper.from_array(w_fold, "w_in"),
        numpy_helper.from_array(b_fold, "b_in"),
        numpy_helper.from_array(np.asarray(params["w_out"], np.float32), "w_out"),
        numpy_helper.from_array(np.asarray(params["b_out"], np.float32), "b_out"),
        numpy_helper.from_array(np.array([M.LOG_EPS], np.float32), "log_eps"),
        numpy_helper.from_array(np.array([M.PAN_EPS], np.float32), "pan_eps"),
        numpy_helper.from_array(np.array([1, 1], np.int64), "split_sizes"),
        numpy_helper.from_array(np.array([1], np.int64), "axis1"),
        numpy_helper.from_array(np.array([1, 0, 4, F], np.int64), "head_shape"),
    ]
    n = [
        helper.make_node("Split", ["magnitude", "split_sizes"], ["left4", "right4"], axis=1),
        helper.make_node("Squeeze", ["left4", "axis1"], ["left"]),
        helper.make_node("Squeeze", ["right4", "axis1"], ["right"]),  # [1, T, F]
        helper.make_node("Add", ["left", "right"], ["total"]),
        helper.make_node("Add", ["total", "log_eps"], ["total_eps"]),
        helper.make_node("Log", ["total_eps"], ["log_total"]),
        helper.make_node("Sub", ["left", "right"], ["diff"]),
        helper.make_node("Add", ["total", "pan_eps"], ["total_pan"]),
        helper.make_node("Div", ["diff", "total_pan"], ["pan"]),
        helper.make_node("Concat", ["log_total", "pan"], ["feat"], axis=2),  # [1, T, 2F]
        helper.make_node("MatMul", ["feat", "w_in"], ["h0_mm"]),
        helper.make_node("Add", ["h0_mm", "b_in"], ["h0_pre"]),
        helper.make_node("Relu", ["h0_pre"], ["h0"]),
        helper.make_node("Transpose", ["h0"], ["c0"], perm=[0, 2, 1]),  # [1, H, T]
    ]
    current = "c0"
    for i, (block, dilation) in enumerate(zip(params["blocks"], M.DILATIONS)):
        w = np.asarray(block["w"], np.float32)  # [3, in, out]
        init.append(numpy_helper.from_array(np.ascontiguousarray(np.transpose(w, (2, 1, 0))), f"conv{i}_w"))  # [out, in, 3]
        init.append(numpy_helper.from_array(np.asarray(block["b"], np.float32), f"conv{i}_b"))
        n += [
            helper.make_node("Conv", [current, f"conv{i}_w", f"conv{i}_b"], [f"conv{i}"], dilations=[dilation], pads=[dilation, dilation], kernel_shape=[3]),
            helper.make_node("Relu", [f"conv{i}"], [f"relu{i}"]),
            helper.make_node("Add", [current, f"relu{i}"], [f"res{i}"]),
        ]
        current = f"res{i}"
    n += [
        helper.make_node("Transpose", [current], ["h"], perm=[0, 2, 1]),  # [1, T, H]
        helper.make_node("MatMul", ["h", "w_out"], ["logits_mm"]),
        helper.make_node("Add", ["logits_mm", "b_out"], ["logits"]),  # [1, T, 4F]
        helper.make_node("Reshape", ["logits", "head_shape"], ["logits4"]),  # [1, T, 4, F]
        helper.make_node("Softmax", ["logits4"], ["soft"], axis=2),
        helper.make_node("Transpose", ["soft"], ["masks"], perm=[0, 2, 1, 3]),  # [1, 4, T, F]
    ]
    graph = helper.make_graph(
        n,
        "stemdeck-masknet",
        [helper.make_tensor_value_info("magnitude", TensorProto.FLOAT, [1, 2, "frames", F])],
        [helper.make_tensor_value_info("masks", TensorProto.FLOAT, [1, 4, "frames", F])],
        init,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="stemdeck", ir_version=8)
    m.doc_string = f"Stemdeck mask network: sr {M.SAMPLE_RATE}, fft {M.FFT_SIZE}, hop {M.HOP}, sources {','.join(M.SOURCES)}"
    onnx.checker.check_model(m)
    return m


def main():
    src, dst = sys.argv[1], sys.argv[2]
    params = np.load(src, allow_pickle=True)["params"].item()
    onnx.save(build(params), dst)
    print(f"wrote {dst}")


if __name__ == "__main__":
    main()
