def check(candidate):
    doc = {"users": [{"name": "ada", "tags": ["admin", "dev"]}], "meta": {"count": 2}}
    assert candidate(doc, "users[0].name") == "ada"
    assert candidate(doc, "users[0].tags[1]") == "dev"
    assert candidate(doc, "meta.count") == 2
    assert candidate(doc, "meta.missing", "n/a") == "n/a"
    assert candidate(doc, "meta.count.x", "n/a") == "n/a"
    assert candidate(doc, "nothing") is None
