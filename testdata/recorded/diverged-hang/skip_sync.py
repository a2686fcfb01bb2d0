import torch, torch.distributed as dist
dist.init_process_group("gloo")
rank = dist.get_rank()


@torch.compile
def step(x, rank):
    y = x * 2
    if rank == 1:
        print("rank 1: overflow, skipping the sync")  # graph break on rank 1 only
        return y, False
    return y + 1, True


x = torch.ones(4)
for i in range(3):
    y, sync = step(x, rank)
    if sync:
        dist.all_reduce(y)  # rank 0 waits here: rank 1 took the other path and never comes
print(f"rank {rank}: steps done", flush=True)
dist.monitored_barrier()  # rank 1 waits here for rank 0
dist.destroy_process_group()
