#!/usr/bin/env python3
"""Train a tiny Llama-architecture chat model on CPU and write it as GGUF, for llama-server.

Used by scripts/third-party/llama-server.sh; not part of npm test. The quality of the model's
language does not matter: the conformance run judges llama-server's behaviour (routes, framing,
errors, usage, grammar-constrained JSON and tool calls). The model only has to be a real GGUF that
llama-server loads and that ends its turns with <|im_end|>.

  python3 llama-tiny-model.py --gguf-py LLAMA_CPP/gguf-py --out model.gguf [--steps 724]

- Tokenizer: SentencePiece-style ("llama" vocab) written straight into the GGUF: the control tokens
  <unk> <s> </s> <|im_start|> <|im_end|>, 256 byte-fallback tokens, and one token per printable
  ASCII character with U+2581 for the space. No sentencepiece or tokenizers package is needed.
- Model: llama architecture, 4 layers, width 128, 4 heads, FFN 384, about 0.85M parameters,
  rotary embeddings in llama.cpp's "normal" (adjacent pairs) layout so q/k are written unpermuted.
- Data: chatml conversations built from Python's standard-library docstrings (each sentence
  answered with the next one) and "Repeat: <words>" turns answered with the words.
- Chat template: chatml (tokenizer.chat_template), so /v1/chat/completions and --jinja work.
Deterministic for a given torch version, seed and step count: the learning rate follows the step,
never the clock, so the same command makes the same file (its sha256) on a slow or a busy machine,
and a re-recording can tell a verdict moved by the model from one moved by the requests.
"""
import argparse, math, random, re, sys, time, warnings
warnings.filterwarnings("ignore")

ap = argparse.ArgumentParser()
ap.add_argument('--gguf-py', required=True, help="llama.cpp's gguf-py directory")
ap.add_argument('--out', required=True)
ap.add_argument('--steps', type=int, default=724, help='training steps (the learning rate decays over them)')
ap.add_argument('--seed', type=int, default=7)
args = ap.parse_args()
sys.path.insert(0, args.gguf_py)

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
import gguf

torch.set_num_threads(1)
torch.manual_seed(args.seed)
rng = random.Random(args.seed)

# ---------------------------------------------------------------- tokenizer
SPECIAL = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>']
BYTES = [f'<0x{b:02X}>' for b in range(256)]
CHARS = ['\u2581'] + [chr(c) for c in range(0x21, 0x7F)]
TOKENS = SPECIAL + BYTES + CHARS
UNK, BOS, EOS, IM_START, IM_END = range(5)
BYTE0 = len(SPECIAL)
CHAR_ID = {c: i for i, c in enumerate(TOKENS) if i >= BYTE0 + 256}
SPECIAL_RE = re.compile('(<\\|im_start\\|>|<\\|im_end\\|>)')


def encode(text):
    ids = []
    for part in SPECIAL_RE.split(text):
        if part == '<|im_start|>':
            ids.append(IM_START)
        elif part == '<|im_end|>':
            ids.append(IM_END)
        else:
            for ch in part.replace(' ', '\u2581'):
                if ch in CHAR_ID:
                    ids.append(CHAR_ID[ch])
                else:
                    ids.extend(BYTE0 + b for b in ch.encode('utf-8'))
    return ids


# ---------------------------------------------------------------- data
from tiny_model_corpus import docstrings  # noqa: E402 (the shared corpus: tiny_model_corpus.py)


sentences = []
for doc in docstrings():
    text = re.sub(r'\s+', ' ', doc).strip()
    for s in re.split(r'(?<=[.!?]) ', text):
        if 12 <= len(s) <= 160 and all(32 <= ord(c) < 127 for c in s):
            sentences.append(s)
sentences = list(dict.fromkeys(sentences))
words = sorted({w for s in sentences for w in re.findall(r'[A-Za-z]{2,10}', s)})
print(f'{len(sentences)} sentences, {len(words)} words', flush=True)


def phrase():
    ws = [rng.choice(words) for _ in range(rng.randint(1, 6))]
    if rng.random() < 0.3:
        ws.insert(rng.randint(0, len(ws)), rng.choice(words).upper())
    return ' '.join(ws)


def turn(role, content):
    return f'<|im_start|>{role}\n{content}<|im_end|>\n'


def conversation():
    text = ''
    if rng.random() < 0.2:
        text += turn('system', rng.choice(['You are a helpful assistant.', 'Answer briefly.', rng.choice(sentences)]))
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            p = phrase()
            text += turn('user', f'Repeat: {p}') + turn('assistant', p)
        else:
            i = rng.randrange(len(sentences) - 1)
            text += turn('user', sentences[i]) + turn('assistant', sentences[i + 1])
    return text


SEQ = 256
stream = []
while len(stream) < 3_000_000:
    stream.extend(encode(conversation()))
data = torch.tensor(stream, dtype=torch.long)

# ---------------------------------------------------------------- model
V, D, L, H, FF = len(TOKENS), 128, 4, 4, 384
HD = D // H
EPS = 1e-5
THETA = 10000.0


class RMSNorm(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(D))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * self.weight


def rope(x, pos):
    # llama.cpp LLAMA_ROPE_TYPE_NORM: rotate adjacent pairs (x[2i], x[2i+1]) by pos * theta^(-2i/d)
    inv = THETA ** (-torch.arange(0, HD, 2, dtype=torch.float32) / HD)
    ang = pos[:, None].float() * inv[None, :]
    cos, sin = ang.cos()[:, None, :], ang.sin()[:, None, :]  # (T, 1, HD/2) against (B, T, H, HD/2)
    x0, x1 = x[..., 0::2], x[..., 1::2]
    out = torch.stack([x0 * cos - x1 * sin, x0 * sin + x1 * cos], dim=-1)
    return out.flatten(-2)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn_norm, self.ffn_norm = RMSNorm(), RMSNorm()
        self.q, self.k, self.v, self.o = (nn.Linear(D, D, bias=False) for _ in range(4))
        self.gate, self.up = nn.Linear(D, FF, bias=False), nn.Linear(D, FF, bias=False)
        self.down = nn.Linear(FF, D, bias=False)

    def forward(self, x, pos):
        B, T, _ = x.shape
        h = self.attn_norm(x)
        q = rope(self.q(h).view(B, T, H, HD), pos).transpose(1, 2)
        k = rope(self.k(h).view(B, T, H, HD), pos).transpose(1, 2)
        v = self.v(h).view(B, T, H, HD).transpose(1, 2)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(B, T, D)
        x = x + self.o(a)
        h = self.ffn_norm(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.blocks = nn.ModuleList(Block() for _ in range(L))
        self.norm = RMSNorm()
        self.out = nn.Linear(D, V, bias=False)

    def forward(self, idx):
        pos = torch.arange(idx.shape[1])
        x = self.emb(idx)
        for b in self.blocks:
            x = b(x, pos)
        return self.out(self.norm(x))


model = Model()
print(f'{sum(p.numel() for p in model.parameters())} parameters, vocab {V}, torch {torch.__version__}', flush=True)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01)
BATCH = 16
start = time.time()
step = 0
while step < args.steps:
    lr = 3e-3 * min(1.0, (step + 1) / 100) * max(0.1, 1 - step / args.steps)
    for g in opt.param_groups:
        g['lr'] = lr
    ix = torch.randint(0, len(data) - SEQ - 1, (BATCH,))
    x = torch.stack([data[i:i + SEQ] for i in ix])
    y = torch.stack([data[i + 1:i + SEQ + 1] for i in ix])
    loss = F.cross_entropy(model(x).view(-1, V), y.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f'step {step} loss {loss.item():.3f} {time.time() - start:.0f}s', flush=True)
    step += 1
print(f'trained {step} steps in {time.time() - start:.0f}s, last loss {loss.item():.3f}', flush=True)

# ---------------------------------------------------------------- GGUF
CHATML = ("{% for message in messages %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}"
          "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")
w = gguf.GGUFWriter(args.out, 'llama')
w.add_name('svc-conformance tiny chatml')
w.add_context_length(4096)
w.add_embedding_length(D)
w.add_block_count(L)
w.add_feed_forward_length(FF)
w.add_head_count(H)
w.add_head_count_kv(H)
w.add_rope_dimension_count(HD)
w.add_rope_freq_base(THETA)
w.add_layer_norm_rms_eps(EPS)
w.add_vocab_size(V)
w.add_file_type(0)
w.add_tokenizer_model('llama')
w.add_token_list(TOKENS)
w.add_token_scores([0.0] * len(TOKENS))
types = [gguf.TokenType.UNKNOWN] + [gguf.TokenType.CONTROL] * 4 + [gguf.TokenType.BYTE] * 256 + [gguf.TokenType.NORMAL] * len(CHARS)
w.add_token_types(types)
w.add_bos_token_id(BOS)
w.add_eos_token_id(IM_END)
w.add_unk_token_id(UNK)
w.add_add_bos_token(False)
w.add_add_eos_token(False)
w.add_add_space_prefix(False)
w.add_chat_template(CHATML)


def t(name, tensor):
    w.add_tensor(name, tensor.detach().float().numpy().astype(np.float32))


t('token_embd.weight', model.emb.weight)
t('output_norm.weight', model.norm.weight)
t('output.weight', model.out.weight)
for i, b in enumerate(model.blocks):
    t(f'blk.{i}.attn_norm.weight', b.attn_norm.weight)
    t(f'blk.{i}.attn_q.weight', b.q.weight)
    t(f'blk.{i}.attn_k.weight', b.k.weight)
    t(f'blk.{i}.attn_v.weight', b.v.weight)
    t(f'blk.{i}.attn_output.weight', b.o.weight)
    t(f'blk.{i}.ffn_norm.weight', b.ffn_norm.weight)
    t(f'blk.{i}.ffn_gate.weight', b.gate.weight)
    t(f'blk.{i}.ffn_up.weight', b.up.weight)
    t(f'blk.{i}.ffn_down.weight', b.down.weight)
w.write_header_to_file()
w.write_kv_data_to_file()
w.write_tensors_to_file()
w.close()
print(f'wrote {args.out}', flush=True)
