# fail_on_recompile_limit_hit: reaching the recompile limit raises FailOnRecompileLimitHit instead of falling back.
import torch
import torch._dynamo

torch._dynamo.config.recompile_limit = 2
torch._dynamo.config.fail_on_recompile_limit_hit = True

@torch.compile(backend="eager")
def f(x, tag):
    return x * len(tag)

x = torch.randn(4)
for t in ("a", "bb", "ccc", "dddd"):
    f(x, t)
print("done")
