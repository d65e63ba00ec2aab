"""libstdc++'s nth_element, partial_sort and sort, step for step (PyTorch's CPU topk and mode call them),
and PyTorch's own quickselect (kthvalue's).

Only the order of *equal* values depends on these algorithms (which of two tied elements topk returns);
minigrad runs them for rows with ties, and a NumPy sort otherwise. ``less(x, y)`` is the comparator.
"""
from __future__ import annotations

_THRESHOLD = 16  # libstdc++'s _S_threshold: below it, introsort leaves the range to insertion sort


def _lg(n: int) -> int:
    return n.bit_length() - 1


def _move_median_to_first(a, result, x, y, z, less) -> None:
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            a[result], a[y] = a[y], a[result]
        elif less(a[x], a[z]):
            a[result], a[z] = a[z], a[result]
        else:
            a[result], a[x] = a[x], a[result]
    elif less(a[x], a[z]):
        a[result], a[x] = a[x], a[result]
    elif less(a[y], a[z]):
        a[result], a[z] = a[z], a[result]
    else:
        a[result], a[y] = a[y], a[result]


def _unguarded_partition(a, first, last, pivot, less) -> int:
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _partition_pivot(a, first, last, less) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _unguarded_linear_insert(a, last, less) -> None:
    val = a[last]
    nxt = last - 1
    while less(val, a[nxt]):
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = val


def _insertion_sort(a, first, last, less) -> None:
    if first == last:
        return
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            val = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _unguarded_linear_insert(a, i, less)


def _push_heap(a, first, hole, top, value, less) -> None:
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


def _adjust_heap(a, first, hole, length, value, less) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if length % 2 == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    _push_heap(a, first, hole, top, value, less)


def _make_heap(a, first, last, less) -> None:
    length = last - first
    if length < 2:
        return
    parent = (length - 2) // 2
    while True:
        _adjust_heap(a, first, parent, length, a[first + parent], less)
        if parent == 0:
            return
        parent -= 1


def _pop_heap(a, first, last, result, less) -> None:
    value = a[result]
    a[result] = a[first]
    _adjust_heap(a, first, 0, last - first, value, less)


def _heap_select(a, first, middle, last, less) -> None:
    _make_heap(a, first, middle, less)
    for i in range(middle, last):
        if less(a[i], a[first]):
            _pop_heap(a, first, middle, i, less)


def _sort_heap(a, first, last, less) -> None:
    while last - first > 1:
        last -= 1
        _pop_heap(a, first, last, last, less)


def partial_sort(a: list, middle: int, less) -> None:
    """std::partial_sort(a.begin(), a.begin() + middle, a.end(), less)."""
    _heap_select(a, 0, middle, len(a), less)
    _sort_heap(a, 0, middle, less)


def nth_element(a: list, nth: int, less) -> None:
    """std::nth_element(a.begin(), a.begin() + nth, a.end(), less)."""
    first, last = 0, len(a)
    if first == last or nth == last:
        return
    depth = _lg(last - first) * 2
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, less)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        if cut <= nth:
            first = cut
        else:
            last = cut
    _insertion_sort(a, first, last, less)


def _introsort_loop(a, first, last, depth, less) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_select(a, first, last, last, less)
            _sort_heap(a, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def sort(a: list, stop: int, less) -> None:
    """std::sort(a.begin(), a.begin() + stop, less)."""
    if stop <= 0:
        return
    _introsort_loop(a, 0, stop, _lg(stop) * 2, less)
    if stop > _THRESHOLD:
        _insertion_sort(a, 0, _THRESHOLD, less)
        for i in range(_THRESHOLD, stop):
            _unguarded_linear_insert(a, i, less)
    else:
        _insertion_sort(a, 0, stop, less)


def quick_select(a: list, k: int, greater) -> None:
    """PyTorch's quick_select_template (aten/src/ATen/native/SortingUtils.h): put the k-th smallest at a[k].

    A median-of-three quickselect; ``greater(x, y)`` is its comparator (kthvalue's: x > y, NaN the largest).
    """
    lo, hi = 0, len(a) - 1
    while hi > lo:
        if hi == lo + 1:  # two elements
            if greater(a[lo], a[hi]):
                a[lo], a[hi] = a[hi], a[lo]
            return
        mid = lo + (hi - lo) // 2  # the median of a[lo], a[mid], a[hi] becomes the pivot, at a[lo]
        a[mid], a[lo + 1] = a[lo + 1], a[mid]
        if greater(a[lo + 1], a[hi]):
            a[lo + 1], a[hi] = a[hi], a[lo + 1]
        if greater(a[lo], a[hi]):
            a[lo], a[hi] = a[hi], a[lo]
        if greater(a[lo + 1], a[lo]):
            a[lo + 1], a[lo] = a[lo], a[lo + 1]
        i, j, pivot = lo + 1, hi, a[lo]
        while True:
            i += 1
            while greater(pivot, a[i]):
                i += 1
            j -= 1
            while greater(a[j], pivot):
                j -= 1
            if j < i:
                break
            a[i], a[j] = a[j], a[i]
        a[lo], a[j] = a[j], a[lo]
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
