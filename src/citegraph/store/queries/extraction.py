"""The extraction cache: model replies kept by (chunk bytes, prompt, model, parameters)."""

from __future__ import annotations

# -- used by store/extraction_cache.py
GET_REPLIES = """
UNWIND $keys AS k
MATCH (c:ExtractionReply {key: k})
RETURN c.key, c.text, c.input_tokens, c.output_tokens
"""

PUT_REPLY = """
MERGE (c:ExtractionReply {key: $key})
SET c.text = $text, c.input_tokens = $input_tokens, c.output_tokens = $output_tokens,
  c.model = $model, c.stored_at = $stored_at
"""

COUNT_REPLIES = "MATCH (c:ExtractionReply) RETURN count(c)"
