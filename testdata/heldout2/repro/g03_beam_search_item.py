# One beam-search step: top-k over the beams' log-probs, then the hypotheses are kept as Python tuples of
# (score, token) read from the tensors.
import torch

@torch.compile(backend="eager")
def beam_step(logp, beam_scores, k):
    total = beam_scores[:, None] + logp
    scores, flat = total.view(-1).topk(k)
    hyps = [(s.item(), int(t)) for s, t in zip(scores, flat)]
    return scores, hyps

torch.manual_seed(0)
beams = torch.zeros(3)
for step in range(3):
    beams, hyps = beam_step(torch.randn(3, 10).log_softmax(-1), beams, 3)
print("ok", hyps[0])
