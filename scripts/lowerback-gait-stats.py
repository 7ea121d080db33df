#!/usr/bin/env python3
"""Gait statistics of lower-back walking recordings, real or simulated (issue 14).

Reads recordings in the project's CSV format (docs/CONTRACTS.md §2: '#' header lines, then
t,ax,ay,az,... with acceleration in g) and prints, per file, the figures the simulator's
lower-back model is calibrated on (docs/accuracy.md, "The simulator's lower back"). It reads
files where they lie and copies nothing; no test needs it.

    scripts/lowerback-gait-stats.py FILE.csv [FILE.csv ...]

A file's walk: with a NAME.truth.json beside it, its `walking*` segment (the U-turn and 1 s
either side of it left out of the steady part); otherwise (a simulated recording) from the first
to the last sample where the gait signal's 1 s deviation exceeds 0.03 g. Foot strikes: the
local maxima of the vertical acceleration (10 Hz low-pass), at least 0.4 s apart and above
half the walk's median peak; the truth's `step_times_s` give the step-interval figure when
present.

Figures (all over the steady part of the walk: strikes 3 to n − 2, U-turn left out):
  rms_v/ap/ml   RMS of the vertical, fore-aft and sideways acceleration about their mean, g
                (gravity from the walk's mean; sideways = the horizontal axis whose
                acceleration has more power at half the cadence than at the cadence)
  ml_stride     amplitude of the sideways acceleration's component at half the cadence, g
  sd_gait       standard deviation of the gait signal |a| − 1 g, g
  kurt          Pearson kurtosis (3 = Gaussian, 1.5 = a sinusoid) of the gait signal |a| − 1 g
  coupling      median over 4 s windows (1 s hop) of Pearson's correlation between the gait
                signal and the size of the horizontal acceleration, as the step counter
                measures it (gravity a 1 s one-pole low-pass, `ImpactCoupling`)
  impact        median per strike of the vertical peak minus the preceding 0.3 s minimum, g
  width         full width at half height of the mean vertical strike peak (strike-aligned
                average), ms
  jerk          median per strike of the steepest vertical rise within 0.15 s before the peak, g/s
  step_cv       coefficient of variation of the truth's step intervals, % (nan without a truth)
  peak_cv       coefficient of variation of the strikes' impact, %
  onset         first strike's impact / steady median impact (the walk's first step)
  stop          last strike's impact / steady median impact
  pre_h         RMS of the horizontal acceleration over the 1 s before the first strike, g
"""
import json
import math
import os
import sys

import numpy as np


def load(path):
    rows = []
    names = None
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if names is None:
                names = line.strip().split(",")
                continue
            rows.append([float(x) if x else math.nan for x in line.strip().split(",")])
    data = np.array(rows)
    col = {n: i for i, n in enumerate(names)}
    t = data[:, col["t"]]
    a = data[:, [col["ax"], col["ay"], col["az"]]]
    return t, a


def low_pass(x, dt, tau):
    """One-pole low-pass (time constant tau, s), started at the first sample."""
    out = np.empty_like(x)
    k = dt / (tau + dt)
    y = x[0].copy()
    for i in range(len(x)):
        y = y + k * (x[i] - y)
        out[i] = y
    return out


def butter_low(x, fs, fc):
    from scipy.signal import butter, filtfilt
    b, a = butter(2, fc / (fs / 2))
    return filtfilt(b, a, x, axis=0)


def walk_span(path, t, gait, fs):
    truth_path = path[:-4] + ".truth.json"
    if os.path.exists(truth_path):
        truth = json.load(open(truth_path))
        walk = [s for s in truth["segments"] if s[2].startswith("walking")][0]
        turns = [(s[0], s[1]) for s in truth["segments"] if s[2].startswith("u_turn")]
        return walk[0], walk[1], turns, truth.get("step_times_s")
    n = int(fs)
    dev = np.array([gait[max(0, i - n // 2):i + n // 2].std() for i in range(len(gait))])
    moving = np.where(dev > 0.03)[0]
    return t[moving[0]], t[moving[-1]], [], None


def strikes(t, vert, fs, start, end):
    v = butter_low(vert, fs, 10)
    idx = [i for i in range(1, len(v) - 1)
           if start - 0.3 <= t[i] <= end + 0.3 and v[i] >= v[i - 1] and v[i] > v[i + 1]]
    idx.sort(key=lambda i: -v[i])
    chosen = []
    for i in idx:
        if all(abs(t[i] - t[j]) >= 0.4 for j in chosen):
            chosen.append(i)
    chosen.sort()
    if not chosen:
        return []
    med = np.median([v[i] - vert.mean() for i in chosen])
    return [i for i in chosen if v[i] - vert.mean() > 0.5 * med]


def kurtosis(x):
    x = x - x.mean()
    return float((x ** 4).mean() / (x ** 2).mean() ** 2)


def stats(path):
    t, a = load(path)
    fs = 1 / np.median(np.diff(t))
    dt = 1 / fs
    gait = np.linalg.norm(a, axis=1) - 1
    start, end, turns, truth_steps = walk_span(path, t, gait, fs)
    walking = (t >= start) & (t <= end)
    up = a[walking].mean(axis=0)
    up /= np.linalg.norm(up)
    vert = a @ up
    horiz = a - np.outer(vert, up)
    # Horizontal basis: the two device axes nearest the horizontal plane.
    axes = sorted(range(3), key=lambda k: abs(up[k]))[:2]
    basis = []
    for k in axes:
        e = np.zeros(3); e[k] = 1
        e -= e.dot(up) * up
        for b in basis:
            e -= e.dot(b) * b
        basis.append(e / np.linalg.norm(e))
    hs = [horiz @ b for b in basis]
    hits = strikes(t, vert, fs, start, end)
    if len(hits) < 8:
        return None
    # steps/s: the truth's strikes when known (a limping trunk's peaks alternate early and late)
    walk_steps = [x for x in (truth_steps or []) if start <= x <= end]
    cadence = 1 / float(np.median(np.diff(walk_steps if len(walk_steps) > 8 else t[hits])))

    def in_turn(x):
        return any(a0 - 1 <= x <= a1 + 1 for a0, a1 in turns)

    steady_hits = [i for i in hits[2:-2] if not in_turn(t[i])]
    steady = np.zeros(len(t), bool)
    steady[hits[2]:hits[-2]] = True
    for a0, a1 in turns:
        steady &= ~((t >= a0 - 1) & (t <= a1 + 1))

    win, hop = int(4 * fs), int(fs)
    starts = [s0 for s0 in range(0, len(t) - win, hop) if steady[s0:s0 + win].all()]

    def band_amplitude(x, f):
        """Median over the steady 4 s windows of the amplitude of x's component at f Hz."""
        out = []
        for s0 in starts:
            s = x[s0:s0 + win] - x[s0:s0 + win].mean()
            tt = t[s0:s0 + win]
            out.append(2 * abs(s.dot(np.exp(-2j * np.pi * f * tt))) / win)
        return float(np.median(out))

    ratios = [band_amplitude(h, cadence / 2) / max(1e-9, band_amplitude(h, cadence)) for h in hs]
    ml = hs[int(np.argmax(ratios))]
    ap = hs[1 - int(np.argmax(ratios))]

    def rms(x):
        s = x[steady]
        return float(np.sqrt(((s - s.mean()) ** 2).mean()))

    # The counter's view: gravity a 1 s one-pole low-pass.
    g_est = low_pass(a, dt, 1.0)
    g_unit = g_est / np.linalg.norm(g_est, axis=1)[:, None]
    along = (a * g_unit).sum(axis=1)
    counter_h = np.sqrt(np.maximum(0, (a * a).sum(axis=1) - along ** 2))
    couplings = [np.corrcoef(gait[s0:s0 + win], counter_h[s0:s0 + win])[0, 1] for s0 in starts]

    vf = butter_low(vert, fs, 20)
    look = int(0.3 * fs)
    impacts = [vf[i] - vf[max(0, i - look):i + 1].min() for i in hits]
    rise = int(0.15 * fs)
    jerks = [np.max(np.diff(vf[max(0, i - rise):i + 1])) * fs for i in steady_hits]
    half = int(0.4 * fs)
    segs = [vert[i - half:i + half] for i in steady_hits if i - half >= 0 and i + half <= len(vert)]
    mean_peak = np.mean(segs, axis=0)
    top = mean_peak[half]
    base = mean_peak[half - look:half].min()
    level = base + (top - base) / 2
    left = half
    while left > 0 and mean_peak[left] > level:
        left -= 1
    right = half
    while right < len(mean_peak) - 1 and mean_peak[right] > level:
        right += 1
    width = (right - left) / fs * 1000
    steady_impacts = [impacts[k] for k, i in enumerate(hits) if i in steady_hits]
    med_impact = float(np.median(steady_impacts))
    if truth_steps:
        times = np.array([x for x in truth_steps if start <= x <= end])
        intervals = np.diff(times)
        keep = [k for k in range(len(intervals)) if not in_turn(times[k]) and not in_turn(times[k + 1])]
        intervals = intervals[keep][2:-2]
    else:
        intervals = np.array([math.nan])   # without a truth the detected peaks would measure the detector
    pre = (t >= t[hits[0]] - 1) & (t < t[hits[0]])
    return {
        "cad": cadence,
        "rms_v": rms(vert), "rms_ap": rms(ap), "rms_ml": rms(ml),
        "ml_stride": band_amplitude(ml, cadence / 2),
        "sd_gait": float(gait[steady].std()),
        "kurt": kurtosis(gait[steady]),
        "coupling": float(np.median(couplings)) if couplings else math.nan,
        "impact": med_impact,
        "width": width,
        "jerk": float(np.median(jerks)),
        "step_cv": float(intervals.std() / intervals.mean() * 100),
        "peak_cv": float(np.std(steady_impacts) / med_impact * 100),
        "onset": impacts[0] / med_impact,
        "stop": impacts[-1] / med_impact,
        "pre_h": float(np.sqrt(((horiz[pre] - horiz[pre].mean(axis=0)) ** 2).sum(axis=1).mean())),
    }


def main():
    keys = ["cad", "rms_v", "rms_ap", "rms_ml", "ml_stride", "sd_gait", "kurt", "coupling", "impact", "width",
            "jerk", "step_cv", "peak_cv", "onset", "stop", "pre_h"]
    print("file".ljust(40) + "".join(k.rjust(10) for k in keys))
    table = []
    for path in sys.argv[1:]:
        s = stats(path)
        name = os.path.basename(path)[:39]
        if s is None:
            print(name.ljust(40) + "  fewer than 8 strikes found")
            continue
        table.append(s)
        print(name.ljust(40) + "".join(("%10.3f" % s[k]) for k in keys))
    if len(table) > 1:
        for label, f in (("min", np.min), ("median", np.median), ("max", np.max)):
            print(label.ljust(40) + "".join(("%10.3f" % f([s[k] for s in table])) for k in keys))


if __name__ == "__main__":
    main()
