"""scorepad.fields.Shape: serializers whose fields are bound once per class and thread
answer and validate exactly like DRF's own, instance after instance."""

from __future__ import annotations

import threading

from rest_framework import serializers

from scorepad.fields import Shape, StrictIntegerField


def _shapes(base: type) -> tuple[type, type]:
    inner = type("Inner", (base,), {
        "number": serializers.IntegerField(),
        "names": serializers.ListField(child=serializers.CharField()),
    })
    outer = type("Outer", (base,), {
        "title": serializers.CharField(source="name"),
        "scores": serializers.DictField(child=serializers.IntegerField()),
        "games": inner(many=True),
        "last": inner(required=False),
        "count": StrictIntegerField(min_value=0, max_value=9),
    })
    return inner, outer


SAMPLES = [
    {"name": "Stammtisch", "scores": {"Anna": 3, "Bert": -2}, "count": 1,
     "games": [{"number": 1, "names": ["Anna"]}, {"number": 2, "names": ["Bert", "Anna"]}],
     "last": {"number": 2, "names": []}},
    {"name": "Pub", "scores": {}, "count": 0, "games": []},
]


def test_a_shape_answers_like_drfs_own_serializer_every_time():
    _, shaped = _shapes(Shape)
    _, stock = _shapes(serializers.Serializer)
    for _ in range(3):  # the second and third instances reuse the bound fields
        for sample in SAMPLES:
            assert shaped(sample).data == stock(sample).data


def test_a_shape_validates_like_drfs_own_serializer_every_time():
    _, shaped = _shapes(Shape)
    _, stock = _shapes(serializers.Serializer)
    bad = {"title": 3, "scores": {"Anna": "x"}, "count": 12,
           "games": [{"number": "one", "names": "Anna"}]}
    for _ in range(3):
        a, b = shaped(data=bad), stock(data=bad)
        assert not a.is_valid() and not b.is_valid()
        assert a.errors == b.errors
        good = {"title": "Pub", "scores": {"Anna": 1}, "count": 2, "games": []}
        a, b = shaped(data=good), stock(data=good)
        assert a.is_valid() and b.is_valid()
        assert dict(a.validated_data) == dict(b.validated_data)


def test_each_instance_is_the_parent_of_its_fields_while_it_works():
    _, shaped = _shapes(Shape)
    first = shaped(SAMPLES[0], context={"who": "first"})
    assert first.fields["games"].context == {"who": "first"}
    second = shaped(SAMPLES[0], context={"who": "second"})
    assert second.fields["games"].root is second
    assert second.fields["games"].context == {"who": "second"}


def test_threads_never_share_a_field():
    _, shaped = _shapes(Shape)
    seen: dict[str, object] = {}

    def work(name: str) -> None:
        seen[name] = shaped(SAMPLES[0]).fields["games"]

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    work("c")
    work("d")
    assert seen["a"] is not seen["b"]
    assert seen["c"] is seen["d"]  # one thread: bound once
