#!/usr/bin/env python3
"""Make a tiny Qwen2-architecture chat model on CPU, saved with save_pretrained, for `transformers serve`.

Used by scripts/third-party/transformers.sh; not part of npm test. The model's language does not
matter: the conformance run judges `transformers serve` (its routes, framing, errors, usage, tool-call
parsing). The model only has to be a real checkpoint directory that `transformers serve` loads
offline, that ends its turns with <|im_end|>, and, given tools, answers with a <tool_call> block
(so the server's tool-call parser has something to parse).

  python3 transformers-tiny-model.py --out DIR [--steps 600] [--seed 7]

- Tokenizer: byte-level BPE (the `tokenizers` library, Qwen2's pre-tokenizer regex), 1024 tokens,
  trained here on Python's standard-library docstrings and the training conversations; special
  tokens <|endoftext|> <|im_start|> <|im_end|>, and <tool_call> </tool_call> <think> </think> as
  added tokens (Qwen2.5's).
- Chat template: Qwen2.5's (chatml; tools listed in the system turn inside <tools></tools>, calls
  written as <tool_call>{"name": ..., "arguments": ...}</tool_call>, tool results as <tool_response>).
  transformers serve parses a qwen2 model's answer with its built-in qwen2 response template
  (cli/serving/utils.py _RESPONSE_TEMPLATE_FALLBACKS), so tool calls come back as tool_calls.
- Model: Qwen2ForCausalLM, 2 layers, hidden 64, 4 heads (2 KV heads), FFN 256, tied embeddings,
  context 4096; random weights from the seed, then --steps steps of AdamW on chatml conversations
  (--steps 0 leaves the random weights as they are). Data: "Repeat: <words>" answered with the words,
  docstring sentences answered with a short one, and, with the harness's two sample tools offered,
  weather and time questions answered with a call, and a tool result answered in one sentence.
Deterministic for a given torch/tokenizers version, seed and step count (one thread, the learning
rate follows the step, never the clock): the same command makes the same files.
"""
import argparse, hashlib, json, math, os, random, re, sys, time, warnings
warnings.filterwarnings("ignore")
os.environ.setdefault("RAYON_NUM_THREADS", "1")  # the BPE trainer: one thread, one order
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

ap = argparse.ArgumentParser()
ap.add_argument('--out', required=True)
ap.add_argument('--steps', type=int, default=600, help='training steps (0: random weights only)')
ap.add_argument('--seed', type=int, default=7)
args = ap.parse_args()

import torch
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from transformers import GenerationConfig, PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

torch.set_num_threads(1)
torch.manual_seed(args.seed)
rng = random.Random(args.seed)

CHAT_TEMPLATE = (
    "{%- if tools %}\n"
    "    {{- '<|im_start|>system\\n' }}\n"
    "    {%- if messages[0]['role'] == 'system' %}\n"
    "        {{- messages[0]['content'] }}\n"
    "    {%- else %}\n"
    "        {{- 'You are a helpful assistant.' }}\n"
    "    {%- endif %}\n"
    "    {{- \"\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>\" }}\n"
    "    {%- for tool in tools %}\n"
    "        {{- \"\\n\" }}\n"
    "        {{- tool | tojson }}\n"
    "    {%- endfor %}\n"
    "    {{- \"\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\\"name\\\": <function-name>, \\\"arguments\\\": <args-json-object>}\\n</tool_call><|im_end|>\\n\" }}\n"
    "{%- else %}\n"
    "    {%- if messages[0]['role'] == 'system' %}\n"
    "        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}\n"
    "    {%- endif %}\n"
    "{%- endif %}\n"
    "{%- for message in messages %}\n"
    "    {%- if (message.role == \"user\") or (message.role == \"system\" and not loop.first) or (message.role == \"assistant\" and not message.tool_calls) %}\n"
    "        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}\n"
    "    {%- elif message.role == \"assistant\" %}\n"
    "        {{- '<|im_start|>' + message.role }}\n"
    "        {%- if message.content %}\n"
    "            {{- '\\n' + message.content }}\n"
    "        {%- endif %}\n"
    "        {%- for tool_call in message.tool_calls %}\n"
    "            {%- if tool_call.function is defined %}\n"
    "                {%- set tool_call = tool_call.function %}\n"
    "            {%- endif %}\n"
    "            {{- '\\n<tool_call>\\n{\"name\": \"' }}\n"
    "            {{- tool_call.name }}\n"
    "            {{- '\", \"arguments\": ' }}\n"
    "            {{- tool_call.arguments | tojson }}\n"
    "            {{- '}\\n</tool_call>' }}\n"
    "        {%- endfor %}\n"
    "        {{- '<|im_end|>\\n' }}\n"
    "    {%- elif message.role == \"tool\" %}\n"
    "        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != \"tool\") %}\n"
    "            {{- '<|im_start|>user' }}\n"
    "        {%- endif %}\n"
    "        {{- '\\n<tool_response>\\n' }}\n"
    "        {{- message.content }}\n"
    "        {{- '\\n</tool_response>' }}\n"
    "        {%- if loop.last or (messages[loop.index0 + 1].role != \"tool\") %}\n"
    "            {{- '<|im_end|>\\n' }}\n"
    "        {%- endif %}\n"
    "    {%- endif %}\n"
    "{%- endfor %}\n"
    "{%- if add_generation_prompt %}\n"
    "    {{- '<|im_start|>assistant\\n' }}\n"
    "{%- endif %}\n"
)

# The harness's sample tools (harness/checks/support/requests.ts SAMPLE_TOOLS), so a request offering
# them meets a system turn the model has seen.
TOOLS = [
    {"type": "function", "function": {"name": "get_weather", "description": "Weather for a city", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city", "unit"]}}},
    {"type": "function", "function": {"name": "get_time", "description": "Local time in a time zone", "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}, "required": ["zone"]}}},
]
CITIES = ['Paris', 'London', 'Berlin', 'Madrid', 'Rome', 'Tokyo', 'Lisbon', 'Oslo', 'Vienna', 'Prague', 'Dublin', 'Cairo', 'Lima', 'Seoul', 'Delhi', 'Sydney']
ZONES = ['Europe/Paris', 'UTC', 'Asia/Tokyo', 'America/New_York', 'Europe/London', 'Australia/Sydney']


# ---------------------------------------------------------------- text
from tiny_model_corpus import docstrings  # noqa: E402 (the shared corpus: tiny_model_corpus.py)


DOCS = docstrings()
sentences = []
for doc in DOCS:
    text = re.sub(r'\s+', ' ', doc).strip()
    for s in re.split(r'(?<=[.!?]) ', text):
        if 12 <= len(s) <= 160 and all(32 <= ord(c) < 127 for c in s):
            sentences.append(s)
sentences = list(dict.fromkeys(sentences))
short = [s for s in sentences if len(s) <= 60]
words = sorted({w for s in sentences for w in re.findall(r'[A-Za-z]{2,10}', s)})
print(f'{len(sentences)} sentences ({len(short)} short), {len(words)} words', flush=True)


def phrase():
    return ' '.join(rng.choice(words) for _ in range(rng.randint(1, 6)))


def conversation():
    """One conversation as a list of messages (the template renders it; tools when the last element says so)."""
    kind = rng.random()
    if kind < 0.25:  # tools offered: a call, and sometimes the call's result answered
        if rng.random() < 0.6:
            city = rng.choice(CITIES)
            q = rng.choice([f'What is the weather in {city}?', f'What is the weather in {city}? Call one of the functions.', f'Weather in {city}, please.'])
            call = {"name": "get_weather", "arguments": {"city": city, "unit": rng.choice(['c', 'c', 'f'])}}
            result = json.dumps({"temperature": rng.randint(-5, 35), "unit": call["arguments"]["unit"]})
            answer = f'It is {json.loads(result)["temperature"]} degrees in {city}.'
        else:
            zone = rng.choice(ZONES)
            q = rng.choice([f'What time is it in {zone}?', f'What time is it in {zone}? Call one of the functions.'])
            call = {"name": "get_time", "arguments": {"zone": zone}}
            result = json.dumps({"time": f'{rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}'})
            answer = f'It is {json.loads(result)["time"]} in {zone}.'
        msgs = [{"role": "user", "content": q}, {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": call}]}]
        if rng.random() < 0.5:
            msgs += [{"role": "tool", "tool_call_id": "call_0", "content": result}, {"role": "assistant", "content": answer}]
        return msgs, True
    msgs = []
    if rng.random() < 0.2:
        msgs.append({"role": "system", "content": rng.choice(['You are a helpful assistant.', 'Answer briefly.', rng.choice(short)])})
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:
            p = phrase()
            msgs += [{"role": "user", "content": f'Repeat: {p}'}, {"role": "assistant", "content": p}]
        else:
            msgs += [{"role": "user", "content": rng.choice(sentences)}, {"role": "assistant", "content": rng.choice(short)}]
    return msgs, False


# ---------------------------------------------------------------- tokenizer
SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>']
ADDED = ['<tool_call>', '</tool_call>', '<think>', '</think>']
PRETOKENIZE_REGEX = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
tok = Tokenizer(models.BPE(unk_token=None, byte_fallback=False))
tok.normalizer = normalizers.NFC()
tok.pre_tokenizer = pre_tokenizers.Sequence([
    pre_tokenizers.Split(Regex(PRETOKENIZE_REGEX), behavior='isolated', invert=False),
    pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
])
tok.decoder = decoders.ByteLevel()
corpus_rng = random.Random(args.seed + 1)
sample_convs = []
for _ in range(400):
    msgs, tools = conversation()
    sample_convs.append(json.dumps(msgs) + json.dumps(TOOLS if tools else []))
trainer = trainers.BpeTrainer(vocab_size=1024, min_frequency=2, special_tokens=SPECIAL + ADDED, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
tok.train_from_iterator(DOCS + sample_convs, trainer=trainer)
tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token='<|im_end|>', pad_token='<|endoftext|>', unk_token=None,
                                    additional_special_tokens=SPECIAL[1:] + ADDED, model_max_length=4096)
tokenizer.chat_template = CHAT_TEMPLATE
tokenizer.padding_side = 'left'
IM_END = tokenizer.convert_tokens_to_ids('<|im_end|>')
PAD = tokenizer.convert_tokens_to_ids('<|endoftext|>')
V = tokenizer.vocab_size if hasattr(tokenizer, 'vocab_size') else len(tokenizer)
V = len(tokenizer)
print(f'vocab {V}, <|im_end|> {IM_END}, <|endoftext|> {PAD}', flush=True)

# ---------------------------------------------------------------- model
config = Qwen2Config(vocab_size=V, hidden_size=64, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4,
                     num_key_value_heads=2, max_position_embeddings=4096, tie_word_embeddings=True, rms_norm_eps=1e-6,
                     bos_token_id=None, eos_token_id=IM_END, pad_token_id=PAD, architectures=['Qwen2ForCausalLM'])
model = Qwen2ForCausalLM(config)
n_params = sum(p.numel() for p in model.parameters())
print(f'{n_params} parameters', flush=True)

if args.steps > 0:
    SEQ, BATCH = 256, 16
    stream = []
    while len(stream) < (args.steps * BATCH * SEQ) // 4 + SEQ * BATCH:
        msgs, tools = conversation()
        text = tokenizer.apply_chat_template(msgs, tools=TOOLS if tools else None, tokenize=False)
        stream.extend(tokenizer.encode(text, add_special_tokens=False))
    data = torch.tensor(stream, dtype=torch.long)
    print(f'{len(stream)} training tokens', flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=0.01, betas=(0.9, 0.95))
    warm = max(1, args.steps // 20)
    model.train()
    t0 = time.time()
    for step in range(args.steps):
        lr = 3e-3 * min(1.0, (step + 1) / warm) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * step / args.steps)))
        for g in opt.param_groups:
            g['lr'] = lr
        ix = torch.randint(0, len(data) - SEQ - 1, (BATCH,))
        x = torch.stack([data[i:i + SEQ] for i in ix])
        out = model(input_ids=x, labels=x)
        opt.zero_grad(set_to_none=True)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 50 == 0 or step == args.steps - 1:
            print(f'step {step} loss {out.loss.item():.3f} lr {lr:.5f} ({time.time() - t0:.0f} s)', flush=True)
    model.eval()

model.generation_config = GenerationConfig(eos_token_id=IM_END, pad_token_id=PAD, do_sample=False)
os.makedirs(args.out, exist_ok=True)
model.save_pretrained(args.out)
tokenizer.save_pretrained(args.out)

# A look at what it answers, through the same template the server applies.
for msgs, tools in [([{"role": "user", "content": "Say hello."}], None),
                    ([{"role": "user", "content": "What is the weather in Paris? Call one of the functions."}], TOOLS)]:
    ids = tokenizer.apply_chat_template(msgs, tools=tools, add_generation_prompt=True, return_tensors='pt', return_dict=True)
    with torch.no_grad():
        gen = model.generate(**ids, max_new_tokens=48, do_sample=False)
    print(repr(tokenizer.decode(gen[0][ids['input_ids'].shape[-1]:])), flush=True)

for f in sorted(os.listdir(args.out)):
    h = hashlib.sha256(open(os.path.join(args.out, f), 'rb').read()).hexdigest()
    print(f'{h}  {f}', flush=True)
