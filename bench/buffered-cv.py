#!/usr/bin/env python3
"""buffered-cv.py - how the neighbour predictors hold up when no training program is near.

Usage: bench/buffered-cv.py [--risk R ...] [BASELINES_JSON] [BUFFER ...]
  --risk R        also choose knn_log_histogram's clock by the least
                  mean + R x spread of energy (chooseMinEnergyPoint; the
                  spread is the neighbours' root-mean-square distance from
                  their geometric mean, as Neighbours.cpp computes it);
                  repeatable
  BASELINES_JSON  a model folder's baselines.json (default: the shipped
                  trained_weights/gtxtitanx/baselines.json)
  BUFFER          log-mix L1 distances (default: 0 2 3 4 5)

Grouped cross-validation holds out a program with its family and twins
(docs/model.md, "Twins"); the held-out program's nearest training program
is then typically 2.2 away on the log-scaled mix. Real kernels sit 3 to 8
away. This leaves each program out in turn and also removes from its
training set every program closer than BUFFER, so the predictors must
extrapolate as far as real kernels make them. Each predictor is refitted
on what is left exactly as `train` fits it (k, and the pull of
knn_toward_mean, by the held-out score of families inside the training
set), so the numbers are what the shipped rules would do at that distance.

Prints, per buffer and predictor: time / power / energy MAPE %, the
min-energy excess % (all, the class whose best memory clock is high, the
low one), the per-class score `train` chooses the default by (mean over
the two classes of energy MAPE + excess), and the energy the chosen
clocks save against the highest ones (%).
"""
import json, math, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
arguments, risks = sys.argv[1:], []
if arguments[:1] in (["-h"], ["--help"]):
    print(__doc__.strip())
    sys.exit(0)
while len(arguments) >= 2 and arguments[0] == "--risk":
    risks.append(float(arguments[1]))
    arguments = arguments[2:]
path = arguments[0] if arguments else os.path.join(here, "..", "trained_weights", "gtxtitanx", "baselines.json")
buffers = [float(b) for b in arguments[1:]] or [0, 2, 3, 4, 5]

MIX_WIDTH = 1001 + 10 + 100      # opcode, state space and type rows (InstructionMix.h)
TWIN_DISTANCE = 0.05             # Neighbours.h
K_CANDIDATES = (1, 2, 3, 4, 5, 7)
PULL_CANDIDATES = (math.inf, 4, 2, 1, 0.5, 0.25)  # times the median nearest distance

applications = json.load(open(path))["applications"]
names = [a["name"] for a in applications]
surfaces = [a["surface"] for a in applications]
n, points = len(names), len(surfaces[0])


def log_scaled(histogram):
    return {int(k): math.log1p(1000 * v) / math.log1p(1000) for k, v in histogram.items()}


def l1(a, b, lo, hi):
    keys = {k for k in a if lo <= k < hi} | {k for k in b if lo <= k < hi}
    return sum(abs(a.get(k, 0) - b.get(k, 0)) for k in keys)


def family(name):  # Splits.cpp familyOf
    parts = []
    for part in name.split("_"):
        if part and part[0].isdigit():
            break
        parts.append(part)
    return "_".join(parts) or name


mixes = [log_scaled(a["histogram"]) for a in applications]
distance = [[l1(mixes[i], mixes[j], 0, MIX_WIDTH) for j in range(n)] for i in range(n)]
unit_distance = [[l1(mixes[i], mixes[j], MIX_WIDTH, 10 ** 9) for j in range(n)] for i in range(n)]
has_units = any(k >= MIX_WIDTH for m in mixes for k in m)

def held_out_groups(members):
    """Neighbours.cpp heldOutGroups over `members`: families joined with their twins."""
    parent = {a: a for a in members}

    def root(a):
        while parent[a] != a:
            a = parent[a]
        return a

    ordered = sorted(members)
    for x, a in enumerate(ordered):
        for b in ordered[x + 1:]:
            if (family(names[a]) == family(names[b]) or distance[a][b] < TWIN_DISTANCE or
                    (has_units and unit_distance[a][b] < TWIN_DISTANCE)):
                parent[root(a)] = root(b)
    return {a: root(a) for a in members}


order = [sorted(range(n), key=lambda j: (distance[i][j], j)) for i in range(n)]


F_MAX = points - 1  # the highest memory and core clocks: the grid is ordered by memory, then core clock


def min_energy_point(surface):
    return min(range(points), key=lambda p: surface[p][2])


# The class of a program: is its least-energy point at the higher memory clock?
high_half = sum(s[points // 2][0] < s[0][0] for s in surfaces) > n / 2
high_class = [(min_energy_point(s) >= points // 2) == high_half for s in surfaces]


def log_sum(members):
    return [[sum(math.log(surfaces[a][p][m]) for a in members) for m in range(3)] for p in range(points)]


def from_logs(logs, count):
    return [[math.exp(v / count) for v in point] for point in logs]


def pulled(near, log_mean, weight):
    return [[math.exp((1 - weight) * math.log(near[p][m]) + weight * log_mean[p][m]) for m in range(3)]
            for p in range(points)]


def errors(predicted, truth, chosen_point=None):
    mape = [sum(abs(predicted[p][m] / truth[p][m] - 1) for p in range(points)) / points * 100 for m in range(3)]
    chosen = truth[min_energy_point(predicted) if chosen_point is None else chosen_point][2]
    return mape + [(chosen / truth[min_energy_point(truth)][2] - 1) * 100, (1 - chosen / truth[F_MAX][2]) * 100]


def risk_averse_point(mean, members, risk):
    """chooseMinEnergyPoint(prediction, risk) on a neighbour prediction."""
    def score(p):
        spread = math.sqrt(sum((surfaces[b][p][2] - mean[p][2]) ** 2 for b in members) / len(members))
        return mean[p][2] + risk * spread
    return min(range(points), key=score)


class Neighbours:
    """NearestNeighbours::fit on `train`: k and the pull chosen together by
    the mean of (relative error of the three factors + min-energy excess)
    over the training programs, each seen with its group hidden."""

    def __init__(self, train, pull_candidates):
        self.train = train
        groups = held_out_groups(train)
        by_group = {}
        for a in train:
            by_group.setdefault(groups[a], []).append(a)
        group_logs = {g: log_sum(m) for g, m in by_group.items()}
        total = log_sum(train)
        self.log_mean = [[v / len(train) for v in point] for point in total]
        left_out = []
        for a in sorted(train):
            near = [b for b in order[a] if b in train and groups[b] != groups[a]][:max(K_CANDIDATES)]
            others = len(train) - len(by_group[groups[a]])
            log_mean = [[(total[p][m] - group_logs[groups[a]][p][m]) / others for m in range(3)]
                        for p in range(points)]
            left_out.append((a, near, log_mean))
        typical = statistics.median_high(distance[a][near[0]] for a, near, _ in left_out)
        best = math.inf
        self.k, self.pull = K_CANDIDATES[len(K_CANDIDATES) // 2], math.inf
        for multiple in pull_candidates:
            pull = multiple * typical
            for k in K_CANDIDATES:
                score = 0
                for a, near, log_mean in left_out:
                    e = errors(self.surface(a, near[:k], log_mean, pull), surfaces[a])
                    score += (e[0] + e[1] + e[2]) / 3 + e[3]
                score /= len(left_out)
                if score < best:  # ties: no pull before a pull, fewer neighbours before more
                    best, self.k, self.pull = score, k, pull

    @staticmethod
    def surface(a, members, log_mean, pull):
        near = from_logs(log_sum(members), len(members))
        if math.isinf(pull):
            return near
        d = sum(distance[a][b] for b in members) / len(members)
        return pulled(near, log_mean, d / (d + pull) if d > 0 else 0)

    def members(self, a):
        return [b for b in order[a] if b in self.train][:self.k]

    def predict(self, a):
        return self.surface(a, self.members(a), self.log_mean, self.pull)


risk_rules = [f"knn_log_histogram, risk {r:g}" for r in risks]
rules = ("knn_log_histogram", "knn_toward_mean", "training_mean", *risk_rules)
everyone = held_out_groups(range(n))
for buffer in buffers:
    results = {rule: {} for rule in rules}
    nearest_distances = []
    for i in range(n):
        train = {j for j in range(n) if everyone[j] != everyone[i] and distance[i][j] >= buffer}
        nearest_distances.append(min(distance[i][j] for j in train))
        plain = Neighbours(train, (math.inf,))
        hedged = Neighbours(train, PULL_CANDIDATES)
        results["knn_log_histogram"][i] = errors(plain.predict(i), surfaces[i])
        for risk, rule in zip(risks, risk_rules):
            predicted = plain.predict(i)
            results[rule][i] = errors(predicted, surfaces[i], risk_averse_point(predicted, plain.members(i), risk))
        results["knn_toward_mean"][i] = errors(hedged.predict(i), surfaces[i])
        results["training_mean"][i] = errors(from_logs(log_sum(train), len(train)), surfaces[i])
    print(f"buffer {buffer:g}: nearest training program {statistics.median(nearest_distances):.2f} away "
          f"(median over the {n})")
    for rule in rules:
        result = results[rule]
        high = [i for i in range(n) if high_class[i]]
        low = [i for i in range(n) if not high_class[i]]

        def mean_of(members, m):
            return sum(result[i][m] for i in members) / len(members)

        per_class = (mean_of(high, 2) + mean_of(high, 3) + mean_of(low, 2) + mean_of(low, 3)) / 2
        every = range(n)
        print(f"  {rule:27s} {mean_of(every, 0):5.1f} / {mean_of(every, 1):4.1f} / {mean_of(every, 2):5.1f}"
              f"  excess {mean_of(every, 3):5.1f} ({mean_of(high, 3):5.1f} / {mean_of(low, 3):4.1f})"
              f"  per-class {per_class:5.1f}  saving vs Fmax {mean_of(every, 4):4.1f}")
