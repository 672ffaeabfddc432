"""Multitrack songs from the project's generator (bench/src/eval-set), read into memory for training."""
import json
import os
import struct

import numpy as np

from model import SOURCES


def read_wav(path):
    """float32 / int16 / int24 PCM WAV -> float32 [channels, frames]."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError(f"{path} is not a WAV file")
    pos, fmt, body = 12, None, None
    while pos + 8 <= len(data):
        cid, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        chunk = data[pos + 8 : pos + 8 + size]
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", chunk[:16])
        elif cid == b"data":
            body = chunk
        pos += 8 + size + (size & 1)
    if fmt is None or body is None:
        raise ValueError(f"{path}: no fmt/data chunk")
    tag, channels, _rate, _, _, bits = fmt
    if tag == 0xFFFE:  # WAVE_FORMAT_EXTENSIBLE: the sub-format says float or PCM
        tag = 3 if bits == 32 and b"\x03\x00\x00\x00\x00\x00\x10\x00" in data[:200] else 1
    if tag == 3 and bits == 32:
        samples = np.frombuffer(body, "<f4")
    elif tag == 1 and bits == 16:
        samples = np.frombuffer(body, "<i2").astype(np.float32) / 32768.0
    else:
        raise ValueError(f"{path}: unsupported WAV format tag {tag} bits {bits}")
    return np.ascontiguousarray(samples.reshape(-1, channels).T.astype(np.float32))


def load_set(root, limit=None, dtype=np.float32):
    """Every track of a generated set: [{id, stems: [4, 2, N]}] (SOURCES order), float32 unless dtype says.

    float16 halves a training set's memory (612 songs of stage 7 took 21 GB as float32; 700 did not fit in 24 GB)
    at a rounding noise about 66 dB under each sample; excerpts come back as float32 (Sampler)."""
    with open(os.path.join(root, "index.json")) as f:
        index = json.load(f)
    tracks = []
    for entry in index["tracks"][:limit]:
        stems = np.stack([read_wav(os.path.join(root, entry["id"], f"{s}.wav")) for s in SOURCES]).astype(dtype, copy=False)
        tracks.append({"id": entry["id"], "stems": stems})
    return tracks


class MixAugment:
    """Per-stem mixing the generated songs do not vary enough: a pan and a room of the stem's own.

    Each stem of an excerpt is, with pan_probability, moved by a constant-power pan (position -0.6..0.6 of a
    side; 0 leaves it where it was), and with reverb_probability sent through a room: an impulse response of
    decorrelated noise per channel (an exponential decay with RT60 0.3..2.0 s, a 0..30 ms pre-delay, a 1..5-tap
    smoothing for damping), cut at max_ir_seconds, mixed in at -18..-3 dB of the dry stem's energy. The wet
    part belongs to the stem, as a stem's reverb does in a real multitrack, so the targets and the mixture
    change together. Parameters fixed before any score was read; the held-out sets are never read here.
    """

    def __init__(self, pan_probability=0.5, reverb_probability=0.3, max_ir_seconds=0.6, sample_rate=44100):
        self.pan_probability = pan_probability
        self.reverb_probability = reverb_probability
        self.ir_samples = int(max_ir_seconds * sample_rate)
        self.sample_rate = sample_rate

    def pan(self, rng, stem):
        position = rng.uniform(-0.6, 0.6)
        angle = (position + 1) * np.pi / 4
        gains = np.array([np.cos(angle), np.sin(angle)], np.float32)[:, None] * np.float32(np.sqrt(2))
        return stem * gains

    def impulse_response(self, rng):
        rt60 = rng.uniform(0.3, 2.0)
        delay = int(rng.uniform(0, 0.03) * self.sample_rate)
        n = self.ir_samples - delay
        t = np.arange(n, dtype=np.float32) / self.sample_rate
        noise = rng.standard_normal((2, n)).astype(np.float32)
        width = int(rng.integers(1, 6))
        if width > 1:
            kernel = np.ones(width, np.float32) / width
            noise = np.stack([np.convolve(ch, kernel, mode="same") for ch in noise])
        tail = noise * (10 ** (-3 * t / rt60)).astype(np.float32)
        return np.concatenate([np.zeros((2, delay), np.float32), tail], axis=1)

    def reverb(self, rng, stem, preroll):
        """stem [2, preroll + N] -> the last N samples with the room added (preroll feeds the room only)."""
        ir = self.impulse_response(rng)
        size = 1 << int(np.ceil(np.log2(stem.shape[-1] + ir.shape[-1] - 1)))
        wet = np.fft.irfft(np.fft.rfft(stem, size) * np.fft.rfft(ir, size), size)[:, : stem.shape[-1]]
        dry = stem[:, preroll:]
        wet = wet[:, preroll:].astype(np.float32)
        dry_energy = float(np.sum(dry * dry))
        wet_energy = float(np.sum(wet * wet)) + 1e-12
        level = 10 ** (rng.uniform(-18, -3) / 10)
        return dry + wet * np.float32(np.sqrt(level * dry_energy / wet_energy))

    def apply(self, rng, stem, preroll):
        """stem [2, preroll + N] (the samples before the excerpt, then the excerpt) -> [2, N]."""
        if rng.random() < self.pan_probability:
            stem = self.pan(rng, stem)
        if rng.random() < self.reverb_probability:
            return self.reverb(rng, stem, preroll)
        return stem[:, preroll:]


def excerpts(tracks, samples):
    """Evaluation excerpts: each track's first `samples` as {ref [4, 2, N], mix [2, N]}."""
    return [{"ref": t["stems"][:, :, :samples], "mix": t["stems"][:, :, :samples].sum(axis=0)} for t in tracks]


def remixed(excerpts, seed):
    """A fixed remix of evaluation excerpts ({ref [4, 2, N]}): every stem panned and given a room, drawn from seed.

    No preroll: each room starts silent at the excerpt's start (the evaluation excerpts start with their song)."""
    augment = MixAugment(pan_probability=1.0, reverb_probability=1.0)
    rng = np.random.default_rng(seed)
    out = []
    for excerpt in excerpts:
        ref = np.stack([augment.apply(rng, stem, 0) for stem in excerpt["ref"]])
        out.append({"ref": ref, "mix": ref.sum(axis=0)})
    return out


class Sampler:
    """Random excerpts with stem remixing and level/channel (and, with mixing, pan and room) augmentation (numpy, seeded)."""

    def __init__(self, tracks, excerpt_samples, seed, remix_probability=0.5, mixing=None):
        self.tracks = tracks
        self.excerpt = excerpt_samples
        self.rng = np.random.default_rng(seed)
        self.remix = remix_probability
        self.mixing = mixing
        self.preroll = mixing.ir_samples if mixing else 0

    def _excerpt(self, track, source):
        """The excerpt [2, preroll + excerpt]: the samples before it (zeros before the song) feed a room."""
        stems = track["stems"]
        n = stems.shape[-1]
        for _ in range(8):
            start = int(self.rng.integers(0, n - self.excerpt))
            piece = stems[source, :, start : start + self.excerpt].astype(np.float32, copy=False)
            # Prefer an excerpt where the source actually plays (most do).
            if np.mean(piece * piece) > 1e-7 or _ == 7:
                break
        if not self.preroll:
            return piece
        before = stems[source, :, max(0, start - self.preroll) : start].astype(np.float32, copy=False)
        return np.concatenate([np.zeros((2, self.preroll - before.shape[-1]), np.float32), before, piece], axis=1)

    def batch(self, size):
        out = np.zeros((size, 4, 2, self.excerpt), np.float32)
        for b in range(size):
            base = self.tracks[int(self.rng.integers(len(self.tracks)))]
            remix = self.rng.random() < self.remix
            for s in range(4):
                track = self.tracks[int(self.rng.integers(len(self.tracks)))] if remix else base
                piece = self._excerpt(track, s)
                if self.mixing:
                    piece = self.mixing.apply(self.rng, piece, self.preroll)
                gain = 10 ** (self.rng.uniform(-6, 4) / 20)
                if self.rng.random() < 0.5:
                    piece = piece[::-1]
                out[b, s] = piece * gain
            # Keep mixture levels in a realistic range (peaks near full scale, sometimes quieter).
            peak = np.max(np.abs(out[b].sum(axis=0))) + 1e-9
            out[b] *= 10 ** (self.rng.uniform(-12, -1) / 20) / peak
        return out
