"""The Stemdeck mask network: magnitude spectrogram in, four soft masks out (vocals, drums, bass, other).

Shared by train.py (jax) and export_onnx.py (the same graph written as ONNX). Kept small on purpose:
it must train on a 2-core CPU in a session and run at well over 10x real time in onnxruntime-node.

  features  log(|L| + |R| + eps) and the pan index (|L| - |R|) / (|L| + |R| + eps), per bin
  dense     2F -> H, ReLU                       (every frame sees the whole spectrum)
  blocks    residual Conv1d over time, kernel 3, dilations 1, 2, 4, 8, 16 (context +/- 31 frames, 0.7 s)
  head      H -> 4F, softmax over the four sources, so the masks of a cell add up to one
"""
import jax
import jax.numpy as jnp
import numpy as np

SAMPLE_RATE = 44100
FFT_SIZE = 4096
HOP = 1024
BINS = FFT_SIZE // 2 + 1
SOURCES = ("vocals", "drums", "bass", "other")
LOG_EPS = 1e-4
PAN_EPS = 1e-4
DILATIONS = (1, 2, 4, 8, 16)


def context_frames():
    return sum(DILATIONS)


def init_params(key, hidden, feature_mean, feature_std):
    keys = jax.random.split(key, 2 + len(DILATIONS))
    f2 = 2 * BINS

    def dense(k, fan_in, shape):
        return jax.random.normal(k, shape, jnp.float32) * np.sqrt(2.0 / fan_in)

    return {
        "mean": jnp.asarray(feature_mean, jnp.float32),
        "std": jnp.asarray(feature_std, jnp.float32),
        "w_in": dense(keys[0], f2, (f2, hidden)),
        "b_in": jnp.zeros((hidden,), jnp.float32),
        # Residual branches start small so the stack starts near the identity.
        "blocks": [
            {"w": dense(k, 3 * hidden, (3, hidden, hidden)) * 0.3, "b": jnp.zeros((hidden,), jnp.float32)}
            for k in keys[2:]
        ],
        "w_out": dense(keys[1], hidden, (hidden, 4 * BINS)) * 0.1,
        "b_out": jnp.zeros((4 * BINS,), jnp.float32),
    }


def features(mag_left, mag_right):
    """[B, T, F] magnitudes of each channel -> [B, T, 2F] raw features (before standardisation)."""
    total = mag_left + mag_right
    return jnp.concatenate([jnp.log(total + LOG_EPS), (mag_left - mag_right) / (total + PAN_EPS)], axis=-1)


def conv_time(h, w, b, dilation):
    """h [B, T, H]; w [3, H, H] (tap, in, out); zero-padded 'same' convolution along T."""
    pad = jnp.pad(h, ((0, 0), (dilation, dilation), (0, 0)))
    t = h.shape[1]
    out = (
        pad[:, 0:t] @ w[0]
        + pad[:, dilation : dilation + t] @ w[1]
        + pad[:, 2 * dilation : 2 * dilation + t] @ w[2]
    )
    return out + b


def masks(params, mag_left, mag_right):
    """[B, T, F] x2 -> [B, 4, T, F] masks in SOURCES order."""
    x = (features(mag_left, mag_right) - params["mean"]) / params["std"]
    h = jax.nn.relu(x @ params["w_in"] + params["b_in"])
    for block, dilation in zip(params["blocks"], DILATIONS):
        h = h + jax.nn.relu(conv_time(h, block["w"], block["b"], dilation))
    logits = h @ params["w_out"] + params["b_out"]
    b, t, _ = logits.shape
    logits = logits.reshape(b, t, 4, BINS)
    return jnp.transpose(jax.nn.softmax(logits, axis=2), (0, 2, 1, 3))


def sqrt_hann(size):
    n = np.arange(size)
    return np.sqrt(0.5 - 0.5 * np.cos(2 * np.pi * n / size)).astype(np.float32)


def stft(x):
    """x [..., N] -> complex [..., T, F] with the engine's sqrt-Hann window; frames every HOP samples."""
    n = x.shape[-1]
    frames = 1 + (n - FFT_SIZE) // HOP
    idx = np.arange(FFT_SIZE)[None, :] + HOP * np.arange(frames)[:, None]
    framed = x[..., idx] * sqrt_hann(FFT_SIZE)
    return jnp.fft.rfft(framed, axis=-1)
