"""Trains the Stemdeck mask network on the project's synthetic multitracks (CPU or GPU, jax).

  python train.py --train .data/train-set-1 --dev .data/eval-set --out runs/v1 [--minutes 40] [--hidden 192]
  python train.py --train .data/tempo-set-1,.data/wide-set-1 --dev .data/eval-set --val .data/wide-set-2 \
      --resume runs/from-onnx/params.npz --lr 5e-4 --out runs/v2

Writes <out>/params.npz (best checkpoint), <out>/curves.json (loss and dev/val SDR over steps) and
<out>/config.json. Only the training sets are trained on; the dev set (and, with --val, a validation set
of the wide family, averaged with it) picks the checkpoint. The held-out sets are never read here.
"""
import argparse
import json
import os
import queue
import threading
import time

import jax
import jax.numpy as jnp
import numpy as np

import data
import model as M


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--train", required=True, help="generated training sets, comma-separated (bench/src/eval-set --set train|tempo|wide)")
    p.add_argument("--dev", required=True, help="the dev eval set (checkpoint choice and curves)")
    p.add_argument("--val", default=None, help="validation sets from the training families (not held-out), comma-separated; the mean SDR over all their excerpts is averaged with dev's for the checkpoint choice")
    p.add_argument("--out", required=True)
    p.add_argument("--hidden", type=int, default=192)
    p.add_argument("--batch", type=int, default=12)
    p.add_argument("--frames", type=int, default=96, help="frames per excerpt (hop 1024: 96 = 2.2 s)")
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--minutes", type=float, default=40)
    p.add_argument("--steps", type=int, default=100000)
    p.add_argument("--eval-every", type=int, default=150)
    p.add_argument("--dev-tracks", type=int, default=8, help="dev tracks scored for the curve (first N)")
    p.add_argument("--dev-seconds", type=float, default=20)
    p.add_argument("--seed", type=int, default=16)
    p.add_argument("--resume", default=None, help="params.npz to start from")
    p.add_argument("--mixing", action="store_true", help="per-stem pan and room augmentation (data.MixAugment)")
    p.add_argument("--half-storage", action="store_true", help="keep the training songs as float16 in memory (half of float32; excerpts are float32)")
    p.add_argument("--val-remix", type=int, default=None, help="also score the validation excerpts remixed (every stem panned and given a room, drawn from this seed); the choice then averages dev, val and the remix")
    return p.parse_args()


def tilt_curves(key, batch):
    """A smooth random EQ per stem (about +/-3 dB, low-order over log frequency): timbre variety."""
    u = np.log1p(np.arange(M.BINS) / 8.0) / np.log1p((M.BINS - 1) / 8.0)
    basis = jnp.asarray(np.stack([np.cos(np.pi * k * u) for k in (1, 2, 3)]), jnp.float32)  # [3, F]
    coef = jax.random.normal(key, (batch, 4, 3)) * 0.25
    return jnp.exp(coef @ basis)  # [B, 4, F]


def spectra(audio, key):
    """audio [B, 4, 2, N] -> mixture magnitudes [B, 2, T, F], stem magnitudes [B, 4, 2, T, F]."""
    stems = M.stft(audio)  # [B, 4, 2, T, F] complex
    gains = tilt_curves(key, audio.shape[0])[:, :, None, None, :]
    stems = stems * gains
    mix = jnp.abs(stems.sum(axis=1))
    return mix, jnp.abs(stems)


def loss_fn(params, mix, targets):
    masks = M.masks(params, mix[:, 0], mix[:, 1])  # [B, 4, T, F]
    est = masks[:, :, None] * mix[:, None]  # [B, 4, 2, T, F]
    err = jnp.sum((est - targets) ** 2, axis=(0, 2, 3, 4))
    energy = jnp.sum(targets**2, axis=(0, 2, 3, 4)) + 1e-6
    # Each source's error relative to its own energy: quiet stems count as much as loud ones.
    return jnp.mean(err / energy)


def adam_init(params):
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": zeros, "v": jax.tree_util.tree_map(jnp.zeros_like, params), "t": 0}


FROZEN = ("mean", "std")


def make_step():
    @jax.jit
    def step(params, opt, audio, key, lr):
        mix, targets = spectra(audio, key)
        loss, grads = jax.value_and_grad(loss_fn)(params, mix, targets)
        t = opt["t"] + 1
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, opt["m"], grads)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, opt["v"], grads)
        scale = lr * jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        new = jax.tree_util.tree_map(lambda p, m, v: p - scale * m / (jnp.sqrt(v) + 1e-8), params, m, v)
        for k in FROZEN:
            new[k] = params[k]
        return new, {"m": m, "v": v, "t": t}, loss

    return step


def prefetched(sampler, size, depth=3):
    """Batches made on a thread of their own (the room augmentation's FFTs release the GIL), in the same order."""
    ready = queue.Queue(maxsize=depth)

    def produce():
        try:
            while True:
                ready.put(sampler.batch(size))
        except BaseException as error:  # handed to the training loop, which would otherwise wait for ever
            ready.put(error)

    threading.Thread(target=produce, daemon=True).start()
    while True:
        batch = ready.get()
        if isinstance(batch, BaseException):
            raise batch
        yield batch


def load_params(path):
    """A params.npz written by train.py or onnx_to_params.py."""
    return {k: v for k, v in np.load(path, allow_pickle=True)["params"].item().items()}


def score_line(scores):
    """Per-stem SDR and their mean, as the training log prints them."""
    return " ".join(f"{s} {x:.2f}" for s, x in zip(M.SOURCES, scores)) + f"  mean {scores.mean():.2f}"


def feature_stats(sampler, batches=20):
    feats = []
    for _ in range(batches):
        audio = sampler.batch(8)
        mix = np.abs(np.asarray(M.stft(audio.sum(axis=1))))  # [B, 2, T, F]
        feats.append(np.asarray(M.features(mix[:, 0], mix[:, 1])).reshape(-1, 2 * M.BINS))
    feats = np.concatenate(feats)
    return feats.mean(axis=0), feats.std(axis=0) + 1e-3


def istft(spec, length):
    """complex [..., T, F] -> [..., length]: sqrt-Hann overlap-add (inverse of model.stft on padded input)."""
    frames = np.fft.irfft(spec, n=M.FFT_SIZE, axis=-1) * M.sqrt_hann(M.FFT_SIZE)
    t = frames.shape[-2]
    out = np.zeros(frames.shape[:-2] + ((t - 1) * M.HOP + M.FFT_SIZE,), np.float32)
    for i in range(t):
        out[..., i * M.HOP : i * M.HOP + M.FFT_SIZE] += frames[..., i, :]
    return out[..., :length] * (2 * M.HOP / M.FFT_SIZE)


def separate(params_np, mixture):
    """mixture [2, N] -> stems [4, 2, N] (whole excerpt at once; the engine in TypeScript segments)."""
    pad = M.FFT_SIZE - M.HOP
    padded = np.pad(mixture, ((0, 0), (pad, pad + M.HOP)))
    spec = np.asarray(M.stft(padded))  # [2, T, F]
    masks = np.asarray(masks_jit(params_np, np.abs(spec[0])[None], np.abs(spec[1])[None]))[0]  # [4, T, F]
    stems = istft(masks[:, None] * spec[None], padded.shape[-1])
    return stems[..., pad : pad + mixture.shape[-1]]


masks_jit = jax.jit(M.masks)


def sdr(ref, est):
    return 10 * np.log10((np.sum(ref**2) + 1e-9) / (np.sum((ref - est) ** 2) + 1e-9))


def dev_sdr(params, dev):
    scores = np.array([[sdr(t["ref"][s], est[s]) for s in range(4)] for t in dev for est in [separate(params, t["mix"])]])
    return scores.mean(axis=0)


def main():
    args = parse_args()
    os.makedirs(args.out, exist_ok=True)
    print(f"devices: {jax.devices()}", flush=True)
    t0 = time.time()
    storage = np.float16 if args.half_storage else np.float32
    train = [track for root in args.train.split(",") for track in data.load_set(root, dtype=storage)]
    excerpt = (args.frames - 1) * M.HOP + M.FFT_SIZE
    sampler = data.Sampler(train, excerpt, args.seed, mixing=data.MixAugment() if args.mixing else None)
    dev_tracks = data.load_set(args.dev, limit=args.dev_tracks)
    n = int(args.dev_seconds * M.SAMPLE_RATE)
    dev = data.excerpts(dev_tracks, n)
    val = [e for root in args.val.split(",") for e in data.excerpts(data.load_set(root, limit=args.dev_tracks), n)] if args.val else []
    val_remix = data.remixed(val, args.val_remix) if val and args.val_remix is not None else []
    print(f"loaded {len(train)} training songs, {len(dev)} dev, {len(val)} validation and {len(val_remix)} remixed validation excerpts in {time.time() - t0:.0f}s", flush=True)

    key = jax.random.PRNGKey(args.seed)
    if args.resume:
        params = load_params(args.resume)
    else:
        mean, std = feature_stats(sampler)
        params = M.init_params(key, args.hidden, mean, std)
    opt = adam_init(params)
    total_minutes = args.minutes

    def lr_at(i, elapsed):
        # Warm up over 100 steps, then a cosine over the time budget down to a tenth.
        progress = min(1.0, elapsed / (total_minutes * 60))
        return args.lr * min(1.0, i / 100) * (0.1 + 0.9 * 0.5 * (1 + np.cos(np.pi * progress)))

    step = make_step()
    curves = {"step": [], "seconds": [], "loss": [], "dev_sdr": [], "dev_mean": [], "val_sdr": [], "val_mean": []}
    if val_remix:
        curves.update({"val_remix_sdr": [], "val_remix_mean": []})
    best = -1e9
    started = time.time()
    losses = []

    def checkpoint(i, elapsed):
        """Scores the params on dev (and val), records the curves, keeps them when the choice improves."""
        nonlocal best
        scores = dev_sdr(params, dev)
        mean_sdr = float(scores.mean())
        curves["step"].append(i)
        curves["seconds"].append(round(elapsed, 1))
        curves["loss"].append(float(np.mean(losses[-args.eval_every :])) if losses else None)
        curves["dev_sdr"].append([round(float(x), 3) for x in scores])
        curves["dev_mean"].append(round(mean_sdr, 3))
        print(f"  dev SDR (first {len(dev)} tracks, {args.dev_seconds:.0f}s): " + score_line(scores), flush=True)
        choice = mean_sdr
        if val:
            val_scores = dev_sdr(params, val)
            curves["val_sdr"].append([round(float(x), 3) for x in val_scores])
            curves["val_mean"].append(round(float(val_scores.mean()), 3))
            choice = 0.5 * (mean_sdr + float(val_scores.mean()))
            if val_remix:
                remix_scores = dev_sdr(params, val_remix)
                curves["val_remix_sdr"].append([round(float(x), 3) for x in remix_scores])
                curves["val_remix_mean"].append(round(float(remix_scores.mean()), 3))
                choice = (mean_sdr + float(val_scores.mean()) + float(remix_scores.mean())) / 3
                print("  val remixed SDR: " + score_line(remix_scores), flush=True)
            print("  val SDR: " + score_line(val_scores) + f"  (choice {choice:.2f})", flush=True)
        if choice > best:
            best = choice
            np.savez(os.path.join(args.out, "params.npz"), params=np.array(jax.tree_util.tree_map(np.asarray, params), dtype=object))
        with open(os.path.join(args.out, "curves.json"), "w") as f:
            json.dump(curves, f, indent=1)

    if args.resume:
        # The starting point is a candidate too: fine-tuning keeps it unless a later step scores higher.
        checkpoint(0, 0.0)
    batches = prefetched(sampler, args.batch)
    for i in range(1, args.steps + 1):
        key, sub = jax.random.split(key)
        audio = next(batches)
        params, opt, loss = step(params, opt, audio, sub, jnp.float32(lr_at(i, time.time() - started)))
        losses.append(float(loss))
        elapsed = time.time() - started
        done = elapsed > total_minutes * 60 or i == args.steps
        if i % 25 == 0:
            print(f"step {i:5d}  loss {np.mean(losses[-25:]):.4f}  {elapsed / i:.2f}s/step  {elapsed / 60:.1f} min", flush=True)
        if i % args.eval_every == 0 or done:
            checkpoint(i, elapsed)
        if done:
            break
    config = {k: v for k, v in vars(args).items()}
    config.update({"fftSize": M.FFT_SIZE, "hop": M.HOP, "sampleRate": M.SAMPLE_RATE, "dilations": M.DILATIONS, "bestChoice": best, "steps": i, "trainSongs": len(train)})
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
    print(f"done: {i} steps in {(time.time() - started) / 60:.1f} min, best checkpoint score {best:.2f} dB", flush=True)


if __name__ == "__main__":
    main()
