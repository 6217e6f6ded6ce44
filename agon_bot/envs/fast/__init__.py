"""Each game's encodings read from the engine's state directly, without the observation
JSON: what the env runs every step. `tests/envs/test_encodings.py` holds them equal to
the JSON encodings (the definition) at every position of whole random games."""
