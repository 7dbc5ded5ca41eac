"""A small PyTorch training step on a GPU, for comparing tr-read on a
Kineto trace with tr-read on tr-record's log of the same run (the GPU
fixtures' tools/gpu-fixtures): a convolution, two linear layers, ReLU,
cross-entropy and Adam, on fixed random data, ITERATIONS steps after one
outside the trace, each in an NVTX range "step".

    python3 torch-step.py [--iterations N] [--profile KINETO.json]

With --profile the steps run under torch.profiler (record_shapes) and
its Chrome trace (Kineto's JSON) is written to KINETO.json; under
tr-record the CUDA collector records the same run where CUPTI lets both.
"""
import argparse

import torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--profile", metavar="KINETO.json")
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

    step()  # warm-up: cuDNN and cuBLAS choose their kernels outside the trace
    if args.profile:
        acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
        with torch.profiler.profile(activities=acts, record_shapes=True) as prof:
            for _ in range(args.iterations):
                loss = step()
        prof.export_chrome_trace(args.profile)
    else:
        for _ in range(args.iterations):
            loss = step()
    print(f"torch-step: {args.iterations} steps, loss {loss:.4f}")


if __name__ == "__main__":
    main()
