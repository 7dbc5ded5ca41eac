"""A small PyTorch training step on a GPU, for comparing tr-read on a
Kineto trace with tr-read on tr-record's log of the same run (the GPU
fixtures' tools/gpu-fixtures): a convolution, two linear layers, ReLU,
cross-entropy and Adam, on fixed random data: one step, then WINDOWS
windows of ITERATIONS steps each, each step in an NVTX range "step",
each window in one named "window".

    python3 torch-step.py [--iterations N] [--windows W] [--profile KINETO]

With --profile each window runs under its own torch.profiler
(record_shapes) and its Chrome trace (Kineto's JSON) is written to
KINETO-W.json, W from 1. Under tr-record the CUDA collector records the
run; with --profile too, Kineto finds CUPTI taken (one subscriber at a
time) and records no GPU activity.
"""
import argparse

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--windows", type=int, default=1)
    ap.add_argument("--profile", metavar="KINETO")
    args = ap.parse_args()

    torch.manual_seed(0)
    dev = torch.device("cuda")
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.Flatten(),
        torch.nn.Linear(16 * 32 * 32, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = torch.randn(64, 3, 32, 32, device=dev)
    y = torch.randint(0, 10, (64,), device=dev)

    def step():
        torch.cuda.nvtx.range_push("step")
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        return loss.item()

    def window():
        torch.cuda.nvtx.range_push("window")
        for _ in range(args.iterations):
            loss = step()
        torch.cuda.nvtx.range_pop()
        return loss

    step()  # warm-up: cuDNN and cuBLAS choose their kernels outside the trace
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    for w in range(1, args.windows + 1):
        if args.profile:
            with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
                loss = window()
            prof.export_chrome_trace(f"{args.profile}-{w}.json")
        else:
            loss = window()
    print(f"torch-step: {args.windows} windows of {args.iterations} steps, loss {loss:.4f}")


if __name__ == "__main__":
    main()
