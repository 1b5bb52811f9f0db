#!/usr/bin/env python3
"""SCRAM test vectors from an implementation independent of kepoch's (Python's hashlib and
hmac, RFC 5802 section 3). test_scram_client.cpp holds this script's output for
SCRAM-SHA-512 (RFC 7677 publishes SHA-256 only); the SHA-256 line re-derives RFC 7677's
example as a check of the script itself. Run: python3 tests/unit/cluster/scram_vectors.py
"""
import base64
import hashlib
import hmac


def exchange(hash_name, user, password, client_nonce, server_nonce, salt_b64, iterations):
    client_first_bare = f"n={user},r={client_nonce}"
    nonce = client_nonce + server_nonce
    server_first = f"r={nonce},s={salt_b64},i={iterations}"
    without_proof = f"c=biws,r={nonce}"
    auth_message = ",".join([client_first_bare, server_first, without_proof]).encode()
    salted = hashlib.pbkdf2_hmac(hash_name, password.encode(), base64.b64decode(salt_b64), iterations)
    client_key = hmac.new(salted, b"Client Key", hash_name).digest()
    stored_key = hashlib.new(hash_name, client_key).digest()
    signature = hmac.new(stored_key, auth_message, hash_name).digest()
    proof = bytes(a ^ b for a, b in zip(client_key, signature))
    server_key = hmac.new(salted, b"Server Key", hash_name).digest()
    server_signature = hmac.new(server_key, auth_message, hash_name).digest()
    return {
        "client-first": "n,," + client_first_bare,
        "server-first": server_first,
        "client-final": f"{without_proof},p={base64.b64encode(proof).decode()}",
        "server-final": f"v={base64.b64encode(server_signature).decode()}",
    }


if __name__ == "__main__":
    print("# RFC 7677 section 3 (SCRAM-SHA-256)")
    for k, v in exchange("sha256", "user", "pencil", "rOprNGfwEbeRWgbNEkqO",
                         "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0", "W22ZaJ0SNY7soEsUEjb6gQ==", 4096).items():
        print(f"{k}: {v}")
    print("# SCRAM-SHA-512, user kepoch, password kepoch-secret")
    for k, v in exchange("sha512", "kepoch", "kepoch-secret", "fyko+d2lbbFgONRv9qkxdawL",
                         "3rfcNHYJY1ZVvWVs7j", "QSXCR+Q6sek8bf92", 4096).items():
        print(f"{k}: {v}")
