/* Akropolis' compiled core, first stage: the legal-placement upkeep of one city.
 *
 * `update_legal` is `engine.akropolis.fast.city_cache.CityCache.update_legal` in C, on
 * the same Python objects (the city's `top` dict, the sorted legal list, its set and the
 * placements' texts): the pure-Python method stays the reference and the fallback, and
 * the tests compare the two on every state of random games. Since the fourth stage the
 * core keeps a city's legal triangles in a C array of its own (`LegalTriangles`, read
 * from Python as the list and the set it stands for) from the city's first placement.
 *
 * The tables it reads are the Python engine's own (`fast.legal_tables`), handed over once
 * by `setup` (engine/akropolis/native/__init__.py) and copied into C arrays there: no rule
 * is derived a second time here. Every input is checked: a wrong type raises, never
 * crashes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>

#define CORE_VERSION 4 /* bump with every change of behaviour (checked by the loader) */
#define RING_SIZE 9
#define RING_MASKS (1 << RING_SIZE)
#define MAX_SECTORS 8
#define MAX_SECTOR_TABLE (1 << 12)
#define MAX_OUTER 32

typedef struct {
    int32_t start, len; /* a run of the pool */
} Span;

typedef struct {
    int ring_start, ring_mask, outer_start, outer_mask, width, size;
    Span table[MAX_SECTOR_TABLE];
} Sector;

typedef struct {
    long ring_offset[RING_SIZE];
    long ring_bit[RING_SIZE];
    Span gained[RING_MASKS], lost[RING_MASKS]; /* SPLIT_BY_LEVEL[kind][at_level] */
    Span maybe_before[RING_MASKS];             /* MAYBE_LEGAL_BEFORE[kind][empty] */
    Span outer_needed[RING_MASKS];             /* pairs (offset, bit) in the pool */
    int n_sectors;
    Sector sectors[MAX_SECTORS];
} KindTables;

static KindTables *kinds; /* [2], allocated by setup */
static long outer_whole;
static long *pool;
static Py_ssize_t pool_len, pool_cap;

/* --- setup: the Python tables into C arrays ----------------------------------------- */

static int pool_push(long value) {
    if (pool_len == pool_cap) {
        Py_ssize_t cap = pool_cap ? 2 * pool_cap : 4096;
        long *grown = realloc(pool, (size_t)cap * sizeof(long));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        pool = grown;
        pool_cap = cap;
    }
    pool[pool_len++] = value;
    return 0;
}

static int as_long(PyObject *item, long *out) {
    if (!PyLong_Check(item)) {
        PyErr_SetString(PyExc_TypeError, "core tables: an int was expected");
        return -1;
    }
    *out = PyLong_AsLong(item);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* A tuple of ints into the pool (pairs: a tuple of 2-tuples, flattened). */
static int span_of(PyObject *ints, int pairs, Span *span) {
    if (!PyTuple_Check(ints)) {
        PyErr_SetString(PyExc_TypeError, "core tables: a tuple was expected");
        return -1;
    }
    span->start = (int32_t)pool_len;
    Py_ssize_t n = PyTuple_GET_SIZE(ints);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyTuple_GET_ITEM(ints, i);
        long value;
        if (pairs) {
            if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2) {
                PyErr_SetString(PyExc_TypeError, "core tables: a pair was expected");
                return -1;
            }
            for (int j = 0; j < 2; j++) {
                if (as_long(PyTuple_GET_ITEM(item, j), &value) < 0 || pool_push(value) < 0)
                    return -1;
            }
        } else if (as_long(item, &value) < 0 || pool_push(value) < 0) {
            return -1;
        }
    }
    span->len = (int32_t)(pool_len - span->start);
    return 0;
}

static PyObject *sized_tuple(PyObject *object, Py_ssize_t size, const char *what) {
    if (!PyTuple_Check(object) || (size >= 0 && PyTuple_GET_SIZE(object) != size)) {
        PyErr_Format(PyExc_TypeError, "core tables: %s has the wrong shape", what);
        return NULL;
    }
    return object;
}

static int setup_kind(int kind, PyObject *ring_bits, PyObject *split, PyObject *maybe,
                      PyObject *outer_needed, PyObject *sectors) {
    KindTables *t = &kinds[kind];
    if (!sized_tuple(ring_bits, RING_SIZE, "RING_BITS") ||
        !sized_tuple(split, RING_MASKS, "SPLIT_BY_LEVEL") ||
        !sized_tuple(maybe, RING_MASKS, "MAYBE_LEGAL_BEFORE") ||
        !sized_tuple(outer_needed, RING_MASKS, "OUTER_NEEDED") ||
        !sized_tuple(sectors, -1, "RING_SECTORS"))
        return -1;
    for (int j = 0; j < RING_SIZE; j++) {
        PyObject *pair = sized_tuple(PyTuple_GET_ITEM(ring_bits, j), 2, "a ring bit");
        if (!pair || as_long(PyTuple_GET_ITEM(pair, 0), &t->ring_offset[j]) < 0 ||
            as_long(PyTuple_GET_ITEM(pair, 1), &t->ring_bit[j]) < 0)
            return -1;
        if (t->ring_bit[j] != 1L << j) {
            PyErr_SetString(PyExc_ValueError, "core tables: ring bits in cyclic order");
            return -1;
        }
    }
    for (int mask = 0; mask < RING_MASKS; mask++) {
        PyObject *pair = sized_tuple(PyTuple_GET_ITEM(split, mask), 2, "a split");
        if (!pair || span_of(PyTuple_GET_ITEM(pair, 0), 0, &t->gained[mask]) < 0 ||
            span_of(PyTuple_GET_ITEM(pair, 1), 0, &t->lost[mask]) < 0 ||
            span_of(PyTuple_GET_ITEM(maybe, mask), 0, &t->maybe_before[mask]) < 0 ||
            span_of(PyTuple_GET_ITEM(outer_needed, mask), 1, &t->outer_needed[mask]) < 0)
            return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(sectors);
    if (n > MAX_SECTORS) {
        PyErr_SetString(PyExc_ValueError, "core tables: too many ring sectors");
        return -1;
    }
    t->n_sectors = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        Sector *s = &t->sectors[i];
        PyObject *sector = sized_tuple(PyTuple_GET_ITEM(sectors, i), 6, "a sector");
        long values[5];
        if (!sector) return -1;
        for (int j = 0; j < 5; j++) {
            if (as_long(PyTuple_GET_ITEM(sector, j), &values[j]) < 0) return -1;
        }
        s->ring_start = (int)values[0];
        s->ring_mask = (int)values[1];
        s->outer_start = (int)values[2];
        s->outer_mask = (int)values[3];
        s->width = (int)values[4];
        PyObject *table = sized_tuple(PyTuple_GET_ITEM(sector, 5), -1, "a sector's table");
        if (!table) return -1;
        Py_ssize_t size = PyTuple_GET_SIZE(table);
        /* Every index the update can form must be inside the table. */
        if (size > MAX_SECTOR_TABLE || values[4] < 0 || values[4] > 30 ||
            (((values[1] | (values[3] << values[4])) + 1) != size) || values[0] < 0 ||
            values[0] > 2 * RING_SIZE || values[2] < 0 || values[2] > 2 * MAX_OUTER) {
            PyErr_SetString(PyExc_ValueError, "core tables: a sector's table is out of shape");
            return -1;
        }
        s->size = (int)size;
        for (Py_ssize_t index = 0; index < size; index++) {
            if (span_of(PyTuple_GET_ITEM(table, index), 0, &s->table[index]) < 0) return -1;
        }
    }
    return 0;
}

static PyObject *core_setup(PyObject *self, PyObject *args) {
    PyObject *ring_bits, *split, *maybe, *outer_needed, *sectors;
    long whole;
    if (!PyArg_ParseTuple(args, "O!O!O!O!lO!", &PyTuple_Type, &ring_bits, &PyTuple_Type,
                          &split, &PyTuple_Type, &maybe, &PyTuple_Type, &outer_needed,
                          &whole, &PyTuple_Type, &sectors))
        return NULL;
    if (PyTuple_GET_SIZE(ring_bits) != 2 || PyTuple_GET_SIZE(split) != 2 ||
        PyTuple_GET_SIZE(maybe) != 2 || PyTuple_GET_SIZE(outer_needed) != 2 ||
        PyTuple_GET_SIZE(sectors) != 2) {
        PyErr_SetString(PyExc_ValueError, "core tables: one entry per triangle type");
        return NULL;
    }
    if (whole < 0 || whole >= (1L << MAX_OUTER)) {
        PyErr_SetString(PyExc_ValueError, "core tables: OUTER_WHOLE out of range");
        return NULL;
    }
    KindTables *fresh = calloc(2, sizeof(KindTables));
    if (fresh == NULL) return PyErr_NoMemory();
    KindTables *old = kinds;
    kinds = fresh;
    pool_len = 0;
    for (int kind = 0; kind < 2; kind++) {
        if (setup_kind(kind, PyTuple_GET_ITEM(ring_bits, kind), PyTuple_GET_ITEM(split, kind),
                       PyTuple_GET_ITEM(maybe, kind), PyTuple_GET_ITEM(outer_needed, kind),
                       PyTuple_GET_ITEM(sectors, kind)) < 0) {
            free(fresh);
            kinds = NULL;
            free(old);
            return NULL;
        }
    }
    free(old);
    outer_whole = whole;
    Py_RETURN_NONE;
}

/* --- the update ----------------------------------------------------------------------- */

/* top.get(cell): a borrowed reference, NULL with no error when the cell is empty. */
/* A cell's int, kept for the cells near the origin (a city's): a lookup costs no new
 * object. `origin` is handed over by `action_setup` (0 before: no cells kept). */
#define CELL_WINDOW 128
static long origin;
static PyObject *cell_ints[CELL_WINDOW * CELL_WINDOW];

static PyObject *cell_key(long cell) {
    long q = (cell >> 12) - (origin >> 12) + CELL_WINDOW / 2;
    long r = (cell & 4095) - (origin & 4095) + CELL_WINDOW / 2;
    if (origin == 0 || cell < 0 || q < 0 || q >= CELL_WINDOW || r < 0 || r >= CELL_WINDOW)
        return PyLong_FromLong(cell);
    PyObject **kept = &cell_ints[q * CELL_WINDOW + r];
    if (*kept == NULL) *kept = PyLong_FromLong(cell);
    return Py_XNewRef(*kept);
}

static PyObject *top_get(PyObject *top, long cell) {
    PyObject *key = cell_key(cell);
    if (key == NULL) return NULL;
    PyObject *hex = PyDict_GetItemWithError(top, key);
    Py_DECREF(key);
    return hex;
}

/* A triangle's int, kept as the cells' are (a triangle is 2 * its cell + its kind): the
 * legal triangles' ints are made once, and a set's lookups of them find the same object. */
static PyObject *triangle_ints[2 * CELL_WINDOW * CELL_WINDOW];

static PyObject *triangle_key(long id) {
    long cell = id >> 1;
    long q = (cell >> 12) - (origin >> 12) + CELL_WINDOW / 2;
    long r = (cell & 4095) - (origin & 4095) + CELL_WINDOW / 2;
    if (origin == 0 || id < 0 || q < 0 || q >= CELL_WINDOW || r < 0 || r >= CELL_WINDOW)
        return PyLong_FromLong(id);
    PyObject **kept = &triangle_ints[2 * (q * CELL_WINDOW + r) + (id & 1)];
    if (*kept == NULL) *kept = PyLong_FromLong(id);
    return Py_XNewRef(*kept);
}

/* --- the legal triangles kept in C (`LegalTriangles`) --------------------------------
 * Under the core, a city's legal triangles are this object rather than a Python list and
 * its set: a sorted array of distinct ids, read from Python as the list was (length,
 * indexing, iteration, `in`, equality with a list or a set, a list's repr) and kept in
 * both of `CityCache`'s slots, `legal` and `legal_set`. The core makes it from the list
 * at the city's first update, then updates it in place: no Python int or set entry per
 * gained or lost triangle. `copy()` is what a shared list's first change calls. */

typedef struct {
    PyObject_HEAD
    Py_ssize_t size, capacity;
    long *ids;       /* sorted, distinct */
    PyObject **keys; /* each id's int (`triangle_key`), owned: read without a new object */
} LegalObject;

static PyTypeObject legal_triangles_type;
#define IS_KEPT_LEGAL(object) Py_IS_TYPE((object), &legal_triangles_type)

static LegalObject *legal_sized(Py_ssize_t capacity) {
    LegalObject *made = PyObject_New(LegalObject, &legal_triangles_type);
    if (made == NULL) return NULL;
    made->size = 0;
    made->capacity = capacity < 32 ? 32 : capacity;
    made->ids = PyMem_Malloc((size_t)made->capacity * sizeof(long));
    made->keys = PyMem_Malloc((size_t)made->capacity * sizeof(PyObject *));
    if (made->ids == NULL || made->keys == NULL) {
        Py_DECREF(made);
        PyErr_NoMemory();
        return NULL;
    }
    return made;
}

static void legal_dealloc(PyObject *self) {
    LegalObject *legal = (LegalObject *)self;
    for (Py_ssize_t i = 0; i < legal->size; i++) Py_DECREF(legal->keys[i]);
    PyMem_Free(legal->ids);
    PyMem_Free(legal->keys);
    PyObject_Free(self);
}

/* The first index whose id is >= `id`: a binary search without branches on the ids (the
 * answer stays in [base, base + length]; a conditional move, not a jump, narrows it), as
 * an update looks up some 25 ids at random places of the array. */
static Py_ssize_t legal_search(const LegalObject *legal, long id) {
    const long *base = legal->ids;
    Py_ssize_t length = legal->size;
    if (length == 0) return 0;
    while (length > 1) {
        Py_ssize_t half = length / 2;
        base = base[half] < id ? base + half : base;
        length -= half;
    }
    return (base - legal->ids) + (*base < id);
}

static int legal_has(const LegalObject *legal, long id) {
    Py_ssize_t at = legal_search(legal, id);
    return at < legal->size && legal->ids[at] == id;
}

static int legal_insert(LegalObject *legal, Py_ssize_t at, long id) {
    if (legal->size == legal->capacity) {
        Py_ssize_t capacity = 2 * legal->capacity;
        long *grown = PyMem_Realloc(legal->ids, (size_t)capacity * sizeof(long));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        legal->ids = grown;
        PyObject **more = PyMem_Realloc(legal->keys, (size_t)capacity * sizeof(PyObject *));
        if (more == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        legal->keys = more, legal->capacity = capacity;
    }
    PyObject *key = triangle_key(id);
    if (key == NULL) return -1;
    Py_ssize_t after = legal->size - at;
    memmove(legal->ids + at + 1, legal->ids + at, (size_t)after * sizeof(long));
    memmove(legal->keys + at + 1, legal->keys + at, (size_t)after * sizeof(PyObject *));
    legal->ids[at] = id, legal->keys[at] = key;
    legal->size++;
    return 0;
}

static void legal_remove(LegalObject *legal, Py_ssize_t at) {
    Py_ssize_t after = legal->size - at - 1;
    Py_DECREF(legal->keys[at]);
    memmove(legal->ids + at, legal->ids + at + 1, (size_t)after * sizeof(long));
    memmove(legal->keys + at, legal->keys + at + 1, (size_t)after * sizeof(PyObject *));
    legal->size--;
}

/* From a list of ints, sorted and distinct (ValueError otherwise). */
static LegalObject *legal_from_list(PyObject *list) {
    Py_ssize_t size = PyList_GET_SIZE(list);
    LegalObject *made = legal_sized(size + 32);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < size; i++) {
        long id;
        PyObject *item = PyList_GET_ITEM(list, i);
        id = PyLong_Check(item) ? PyLong_AsLong(item) : -1;
        if (id < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "legal triangles: non-negative int ids");
            goto fail;
        }
        if (i > 0 && id <= made->ids[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "legal triangles: sorted, distinct ids");
            goto fail;
        }
        PyObject *key = triangle_key(id);
        if (key == NULL) goto fail;
        made->ids[i] = id, made->keys[i] = key;
        made->size = i + 1;
    }
    return made;
fail:
    Py_DECREF(made);
    return NULL;
}

static LegalObject *legal_copy_of(const LegalObject *legal) {
    LegalObject *twin = legal_sized(legal->capacity);
    if (twin == NULL) return NULL;
    memcpy(twin->ids, legal->ids, (size_t)legal->size * sizeof(long));
    for (Py_ssize_t i = 0; i < legal->size; i++) twin->keys[i] = Py_NewRef(legal->keys[i]);
    twin->size = legal->size;
    return twin;
}

static PyObject *legal_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"ids", NULL};
    PyObject *ids = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:LegalTriangles", names, &ids)) return NULL;
    PyObject *list = ids == NULL ? PyList_New(0) : PySequence_List(ids);
    if (list == NULL) return NULL;
    LegalObject *made = legal_from_list(list);
    Py_DECREF(list);
    return (PyObject *)made;
}

static Py_ssize_t legal_length(PyObject *self) { return ((LegalObject *)self)->size; }

static PyObject *legal_item(PyObject *self, Py_ssize_t at) {
    LegalObject *legal = (LegalObject *)self;
    if (at < 0 || at >= legal->size) {
        PyErr_SetString(PyExc_IndexError, "legal triangles index out of range");
        return NULL;
    }
    return Py_NewRef(legal->keys[at]);
}

static int legal_contains(PyObject *self, PyObject *item) {
    if (!PyLong_Check(item)) return 0;
    int overflow;
    long id = PyLong_AsLongAndOverflow(item, &overflow);
    if (id == -1 && PyErr_Occurred()) return -1;
    return !overflow && legal_has((LegalObject *)self, id);
}

static PyObject *legal_as_list(const LegalObject *legal) {
    PyObject *list = PyList_New(legal->size);
    if (list == NULL) return NULL;
    for (Py_ssize_t i = 0; i < legal->size; i++) PyList_SET_ITEM(list, i, Py_NewRef(legal->keys[i]));
    return list;
}

static PyObject *legal_as_tuple(const LegalObject *legal) {
    PyObject *tuple = PyTuple_New(legal->size);
    if (tuple == NULL) return NULL;
    for (Py_ssize_t i = 0; i < legal->size; i++) PyTuple_SET_ITEM(tuple, i, Py_NewRef(legal->keys[i]));
    return tuple;
}

/* Equal to another LegalTriangles, a list or tuple of the same ids in order, or a set of
 * the same ids (the list and the set it stands for). */
static PyObject *legal_compare(PyObject *self, PyObject *other, int op) {
    if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
    const LegalObject *legal = (LegalObject *)self;
    int equal;
    if (IS_KEPT_LEGAL(other)) {
        const LegalObject *that = (LegalObject *)other;
        equal = legal->size == that->size &&
                memcmp(legal->ids, that->ids, (size_t)legal->size * sizeof(long)) == 0;
    } else if (PyList_Check(other) || PyTuple_Check(other) || PyAnySet_Check(other)) {
        PyObject *mine = PyAnySet_Check(other) ? PyFrozenSet_New(NULL) : legal_as_list(legal);
        if (mine == NULL) return NULL;
        if (PyAnySet_Check(other)) {
            for (Py_ssize_t i = 0; i < legal->size; i++) {
                if (PySet_Add(mine, legal->keys[i]) < 0) {
                    Py_DECREF(mine);
                    return NULL;
                }
            }
        } else if (PyTuple_Check(other)) {
            Py_SETREF(mine, PyList_AsTuple(mine));
            if (mine == NULL) return NULL;
        }
        equal = PyObject_RichCompareBool(mine, other, Py_EQ);
        Py_DECREF(mine);
        if (equal < 0) return NULL;
    } else {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return PyBool_FromLong(op == Py_EQ ? equal : !equal);
}

static PyObject *legal_repr(PyObject *self) {
    PyObject *list = legal_as_list((LegalObject *)self);
    if (list == NULL) return NULL;
    PyObject *shown = PyObject_Repr(list);
    Py_DECREF(list);
    return shown;
}

static PyObject *legal_copy_method(PyObject *self, PyObject *unused) {
    return (PyObject *)legal_copy_of((LegalObject *)self);
}

static PyObject *legal_reduce(PyObject *self, PyObject *unused) {
    PyObject *list = legal_as_list((LegalObject *)self);
    if (list == NULL) return NULL;
    return Py_BuildValue("(O(N))", (PyObject *)&legal_triangles_type, list);
}

static PySequenceMethods legal_sequence = {
    .sq_length = legal_length,
    .sq_item = legal_item,
    .sq_contains = legal_contains,
};

static PyMethodDef legal_methods[] = {
    {"copy", legal_copy_method, METH_NOARGS, "copy(): the same ids, to change apart."},
    {"__reduce__", legal_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject legal_triangles_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.akropolis.native._core.LegalTriangles",
    .tp_basicsize = sizeof(LegalObject),
    .tp_dealloc = legal_dealloc,
    .tp_repr = legal_repr,
    .tp_as_sequence = &legal_sequence,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A city's legal triangles kept by the core: sorted, distinct ids, read as the "
              "list (and the set) they stand for.",
    .tp_richcompare = legal_compare,
    .tp_methods = legal_methods,
    .tp_new = legal_new,
};

/* --- the update ------------------------------------------------------------------------ */

/* bisect_left on a list of ints. */
static Py_ssize_t bisect_left(PyObject *list, long value) {
    Py_ssize_t low = 0, high = PyList_GET_SIZE(list);
    while (low < high) {
        Py_ssize_t middle = (low + high) / 2;
        long item = PyLong_AsLong(PyList_GET_ITEM(list, middle));
        if (item == -1 && PyErr_Occurred()) return -1;
        if (item < value)
            low = middle + 1;
        else
            high = middle;
    }
    return low;
}

/* One lost id: out of the set, the list (and the texts, when kept). */
static int lose(PyObject *legal, PyObject *legal_set, PyObject *texts, long id) {
    PyObject *key = triangle_key(id);
    if (key == NULL) return -1;
    int found = PySet_Discard(legal_set, key);
    Py_DECREF(key);
    if (found <= 0) return found;
    Py_ssize_t at = bisect_left(legal, id);
    if (at < 0) return -1;
    if (at >= PyList_GET_SIZE(legal)) {
        PyErr_SetString(PyExc_RuntimeError, "legal list and set out of step");
        return -1;
    }
    if (PyList_SetSlice(legal, at, at + 1, NULL) < 0) return -1;
    if (texts != Py_None && PyList_SetSlice(texts, at, at + 1, NULL) < 0) return -1;
    return 0;
}

/* One gained id: without texts appended (merged into order once at the end), with texts
 * inserted in order beside its placements' text. */
static int gain(PyObject *legal, PyObject *legal_set, PyObject *texts, PyObject *placement_texts,
                long id) {
    PyObject *key = triangle_key(id);
    if (key == NULL) return -1;
    int found = PySet_Contains(legal_set, key);
    int status = found;
    if (found == 0) {
        status = PySet_Add(legal_set, key);
        if (status == 0) {
            if (texts == Py_None) {
                status = PyList_Append(legal, key);
            } else {
                Py_ssize_t at = bisect_left(legal, id);
                PyObject *text = at < 0 ? NULL : PyObject_GetItem(placement_texts, key);
                status = -1;
                if (text != NULL) {
                    if (PyList_Insert(legal, at, key) == 0 && PyList_Insert(texts, at, text) == 0)
                        status = 0;
                    Py_DECREF(text);
                }
            }
        }
    }
    Py_DECREF(key);
    return status < 0 ? -1 : 0;
}

#define MAX_MERGED 256

/* The list sorted again once ids were appended after its sorted first `sorted` items (the
 * gains: distinct ints, none already in it): the appended ones sorted (a few) and merged
 * in from the back, what `list.sort()` gives, without its general comparisons. */
static int merge_gained(PyObject *legal, Py_ssize_t sorted) {
    Py_ssize_t total = PyList_GET_SIZE(legal), count = total - sorted;
    if (count > MAX_MERGED) return PyList_Sort(legal);
    PyObject **items = ((PyListObject *)legal)->ob_item;
    PyObject *gained[MAX_MERGED];
    long value[MAX_MERGED];
    for (Py_ssize_t g = 0; g < count; g++) {
        /* Insertion sort: a turn gains a few ids. */
        PyObject *item = items[sorted + g];
        long id = PyLong_AsLong(item);
        if (id == -1 && PyErr_Occurred()) return -1;
        Py_ssize_t at = g;
        while (at > 0 && value[at - 1] > id) {
            value[at] = value[at - 1], gained[at] = gained[at - 1];
            at--;
        }
        value[at] = id, gained[at] = item;
    }
    /* The sorted items that move (those above the least gain) read first, so that
     * nothing is moved before every value is known. */
    Py_ssize_t low = sorted;
    while (low > 0) {
        long id = PyLong_AsLong(items[low - 1]);
        if (id == -1 && PyErr_Occurred()) return -1;
        if (id < value[0]) break;
        low--;
    }
    Py_ssize_t i = sorted - 1, j = count - 1, k = total - 1;
    while (j >= 0) {
        if (i >= low && PyLong_AsLong(items[i]) > value[j]) items[k--] = items[i--];
        else items[k--] = gained[j--];
    }
    return 0;
}

/* What one placement changes, as runs of the tables' relative ids (moved to the placed
 * triangle by `base`): the first run the ids that may be lost, the others those that may
 * be gained, in the Python method's order. */
#define MAX_RUNS (2 + MAX_SECTORS)
typedef struct {
    long base;
    int n_runs;
    const Span *runs[MAX_RUNS];
} Changes;

/* The `i`-th id of run `run`. */
#define CHANGED_ID(changes, run, i) ((changes)->base + pool[(changes)->runs[run]->start + (i)])

static int changes_of(PyObject *top, long triangle, long level, int direct, Changes *changes) {
    if (kinds == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "core tables not set up");
        return -1;
    }
    if (triangle < 0) {
        PyErr_SetString(PyExc_ValueError, "triangle: a non-negative id");
        return -1;
    }
    long y = triangle >> 1, y2 = 2 * y;
    const KindTables *t = &kinds[triangle & 1];
    changes->base = y2;

    /* The nine ring cells, read once: the empty ones and those on the new tile's level. */
    int empty = 0, at_level = 0;
    for (int j = 0; j < RING_SIZE; j++) {
        PyObject *hex = top_get(top, y + t->ring_offset[j]);
        if (hex == NULL) {
            if (PyErr_Occurred()) return -1;
            empty |= 1 << j;
            continue;
        }
        if (!PyTuple_Check(hex) || PyTuple_GET_SIZE(hex) < 1) {
            PyErr_SetString(PyExc_TypeError, "a city's hex: a (level, code, stars) tuple");
            return -1;
        }
        long hex_level = PyLong_AsLong(PyTuple_GET_ITEM(hex, 0));
        if (hex_level == -1 && PyErr_Occurred()) return -1;
        if (hex_level == level) at_level |= 1 << j;
    }
    const Span *lost_span =
        (direct && level == 1) ? &t->maybe_before[empty] : &t->lost[at_level];
    changes->runs[0] = lost_span;
    changes->runs[1] = &t->gained[at_level];
    changes->n_runs = 2;
    if (level == 1) {
        /* The ring triangles whose cells are all empty are legal. */
        long outer = outer_whole;
        const Span *needed = &t->outer_needed[empty];
        for (int32_t i = 0; i < needed->len; i += 2) {
            PyObject *hex = top_get(top, y + pool[needed->start + i]);
            if (hex != NULL)
                outer ^= pool[needed->start + i + 1];
            else if (PyErr_Occurred())
                return -1;
        }
        long ring = (long)empty | (long)empty << RING_SIZE;
        outer |= outer << 15;
        for (int k = 0; k < t->n_sectors; k++) {
            const Sector *s = &t->sectors[k];
            long index = (ring >> s->ring_start & s->ring_mask) |
                         (outer >> s->outer_start & s->outer_mask) << s->width;
            if (index < 0 || index >= s->size) {
                PyErr_SetString(PyExc_RuntimeError, "a sector's index out of its table");
                return -1;
            }
            changes->runs[changes->n_runs++] = &s->table[index];
        }
    }
    return 0;
}

/* The changes on a Python list and its set (and texts), as the Python method makes them. */
static int update_list(PyObject *legal, PyObject *legal_set, PyObject *texts,
                       PyObject *placement_texts, const Changes *changes) {
    for (int32_t i = 0; i < changes->runs[0]->len; i++) {
        if (lose(legal, legal_set, texts, CHANGED_ID(changes, 0, i)) < 0) return -1;
    }
    Py_ssize_t size = PyList_GET_SIZE(legal);
    for (int run = 1; run < changes->n_runs; run++) {
        for (int32_t i = 0; i < changes->runs[run]->len; i++) {
            if (gain(legal, legal_set, texts, placement_texts, CHANGED_ID(changes, run, i)) < 0)
                return -1;
        }
    }
    if (texts == Py_None && PyList_GET_SIZE(legal) != size) return merge_gained(legal, size);
    return 0;
}

/* The changes on the core's LegalTriangles (and the texts, when kept, in step). */
static int update_kept(LegalObject *legal, PyObject *texts, PyObject *placement_texts,
                       const Changes *changes) {
    if (texts != Py_None && PyList_GET_SIZE(texts) != legal->size) {
        PyErr_SetString(PyExc_RuntimeError, "legal triangles and their texts out of step");
        return -1;
    }
    for (int32_t i = 0; i < changes->runs[0]->len; i++) {
        long id = CHANGED_ID(changes, 0, i);
        Py_ssize_t at = legal_search(legal, id);
        if (at >= legal->size || legal->ids[at] != id) continue;
        legal_remove(legal, at);
        if (texts != Py_None && PyList_SetSlice(texts, at, at + 1, NULL) < 0) return -1;
    }
    for (int run = 1; run < changes->n_runs; run++) {
        for (int32_t i = 0; i < changes->runs[run]->len; i++) {
            long id = CHANGED_ID(changes, run, i);
            Py_ssize_t at = legal_search(legal, id);
            if (at < legal->size && legal->ids[at] == id) continue;
            if (texts != Py_None) {
                PyObject *key = triangle_key(id);
                PyObject *text = key == NULL ? NULL : PyObject_GetItem(placement_texts, key);
                Py_XDECREF(key);
                int inserted = text == NULL ? -1 : PyList_Insert(texts, at, text);
                Py_XDECREF(text);
                if (inserted < 0) return -1;
            }
            if (legal_insert(legal, at, id) < 0) return -1;
        }
    }
    return 0;
}

static int update_legal_in(PyObject *top, PyObject *legal, PyObject *legal_set, PyObject *texts,
                           PyObject *placement_texts, long triangle, long level, int direct);

static PyObject *core_update_legal(PyObject *self, PyObject *args) {
    PyObject *top, *legal, *legal_set, *texts, *placement_texts;
    long triangle, level;
    int direct;
    if (!PyArg_ParseTuple(args, "O!OOOOllp", &PyDict_Type, &top, &legal, &legal_set, &texts,
                          &placement_texts, &triangle, &level, &direct))
        return NULL;
    if (update_legal_in(top, legal, legal_set, texts, placement_texts, triangle, level, direct) < 0)
        return NULL;
    Py_RETURN_NONE;
}

/* The update on either kind of legal triangles: a list and its set, or the core's
 * LegalTriangles in both places. 0, or -1 with an exception set. */
static int update_legal_in(PyObject *top, PyObject *legal, PyObject *legal_set, PyObject *texts,
                           PyObject *placement_texts, long triangle, long level, int direct) {
    int kept = IS_KEPT_LEGAL(legal);
    if (kept ? legal_set != legal : !(PyList_Check(legal) && PySet_Check(legal_set))) {
        PyErr_SetString(PyExc_TypeError,
                        "a city's legal triangles: a list and a set, or LegalTriangles in both");
        return -1;
    }
    if (texts != Py_None && !PyList_Check(texts)) {
        PyErr_SetString(PyExc_TypeError, "texts: a list or None");
        return -1;
    }
    Changes changes;
    if (changes_of(top, triangle, level, direct, &changes) < 0) return -1;
    if (kept) return update_kept((LegalObject *)legal, texts, placement_texts, &changes);
    return update_list(legal, legal_set, texts, placement_texts, &changes);
}

/* --- second stage: the running score (`fast.running_score.RunningScore`) ------------- */

/* `score_setup` hands over the rules' numbers the score reads (the Python engine's own:
 * components, scoring, geometry), once; `placed` and `total` are `RunningScore.placed`
 * and `RunningScore.total` in C, on the same RunningScore object (its slots read and
 * written by name), so that everything else that reads a running score is unchanged.
 * The two rare, larger parts stay Python's: the lakes a tile closes (`close_lakes`, one
 * tile in nine or so) is called back, and so is nothing else. */

#define COLOUR_COUNT 5
#define MAX_CODES 16
#define MAX_FLOOD 512

static int score_ready;
#define MAX_HEX_LEVEL 64
static PyObject *hexes_made[MAX_HEX_LEVEL][MAX_CODES]; /* `hex_of`'s, made once */
static long step[6];
static long ring_cycle[2][RING_SIZE]; /* triangle_ring.RING_CYCLE */
static long ring_any[2][RING_SIZE];   /* geometry.RING */
static int n_codes, is_plaza[MAX_CODES], colour_of[MAX_CODES], stars_of[MAX_CODES];
static long house, market, barracks, temple, garden, market_plaza;
static long houses_doubled_from, temples_doubled_from_level, barracks_doubled_mask;

static PyObject *s_difference;

/* The slots of the engine's own classes (`City`, `CityCache`, `RunningScore`, all
 * `__slots__`), read and written where Python keeps them: their offsets are taken from
 * the classes' member descriptors by `objects_setup`, and every object is checked to be
 * of its exact class before its slots are touched. */
static PyTypeObject *city_type, *cache_type, *score_type;
enum { C_TOP, C_TILE_AT, C_TILES, C_KEPT, C_COUNT };
static const char *city_names[C_COUNT] = {"top", "tile_at", "tiles", "kept"};
enum {
    K_CHANGED_CELLS, K_HEX_TEXTS, K_LEGAL, K_LEGAL_SET, K_LEGAL_SHARED, K_LEGAL_TEXTS,
    K_PENDING, K_SCORE, K_TEXT, K_COUNT
};
static const char *cache_names[K_COUNT] = {"changed_cells", "hex_texts", "legal", "legal_set",
                                           "legal_shared", "legal_texts", "pending", "score",
                                           "text"};
enum {
    S_DOUBLE, S_HOUSE_BEST, S_HOUSE_VALUE, S_LAKES, S_NEW_HOUSES, S_POINTS, S_STARS, S_VALUES,
    S_VARIANTS, S_WORTH, S_COUNT
};
static const char *score_names[S_COUNT] = {"double", "house_best", "house_value", "lakes",
                                           "new_houses", "points", "stars", "values",
                                           "variants", "worth"};
static Py_ssize_t city_slot[C_COUNT], cache_slot[K_COUNT], score_slot[S_COUNT];

#define SLOT(object, offset) (*(PyObject **)((char *)(object) + (offset)))

/* A slot's value (borrowed), or NULL with AttributeError where it was never set. */
static PyObject *slot_get(PyObject *object, Py_ssize_t offset, const char *name) {
    PyObject *value = SLOT(object, offset);
    if (value == NULL) PyErr_Format(PyExc_AttributeError, "%s: not set", name);
    return value;
}

/* Set a slot, taking a new reference to `value` (which may not be NULL). */
static void slot_set(PyObject *object, Py_ssize_t offset, PyObject *value) {
    PyObject *old = SLOT(object, offset);
    Py_INCREF(value);
    SLOT(object, offset) = value;
    Py_XDECREF(old);
}

/* Set a slot to a new reference, stolen (NULL: an error already set, -1). */
static int slot_put(PyObject *object, Py_ssize_t offset, PyObject *value) {
    if (value == NULL) return -1;
    PyObject *old = SLOT(object, offset);
    SLOT(object, offset) = value;
    Py_XDECREF(old);
    return 0;
}

static int exactly(PyObject *object, PyTypeObject *type, const char *what) {
    if (type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "core classes not set up");
        return -1;
    }
    if (Py_TYPE(object) != type) {
        PyErr_Format(PyExc_TypeError, "%s expected, not %.80s", what, Py_TYPE(object)->tp_name);
        return -1;
    }
    return 0;
}

static int longs_of(PyObject *tuple, long *out, Py_ssize_t size, const char *what) {
    if (!sized_tuple(tuple, size, what)) return -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        if (as_long(PyTuple_GET_ITEM(tuple, i), &out[i]) < 0) return -1;
    }
    return 0;
}

static PyObject *core_score_setup(PyObject *self, PyObject *args) {
    PyObject *steps, *cycle, *ring, *plaza, *colour, *stars, *codes, *edges;
    long plain[6], limits[2];
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!O!O!O!ll", &PyTuple_Type, &steps, &PyTuple_Type,
                          &cycle, &PyTuple_Type, &ring, &PyTuple_Type, &plaza, &PyTuple_Type,
                          &colour, &PyTuple_Type, &stars, &PyTuple_Type, &codes, &PyTuple_Type,
                          &edges, &limits[0], &limits[1]))
        return NULL;
    score_ready = 0;
    if (longs_of(steps, step, 6, "STEP") < 0 || !sized_tuple(cycle, 2, "RING_CYCLE") ||
        !sized_tuple(ring, 2, "RING"))
        return NULL;
    for (int kind = 0; kind < 2; kind++) {
        if (longs_of(PyTuple_GET_ITEM(cycle, kind), ring_cycle[kind], RING_SIZE, "a ring") < 0 ||
            longs_of(PyTuple_GET_ITEM(ring, kind), ring_any[kind], RING_SIZE, "a ring") < 0)
            return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(plaza);
    if (n > MAX_CODES || PyTuple_GET_SIZE(colour) != n || PyTuple_GET_SIZE(stars) != n) {
        PyErr_SetString(PyExc_ValueError, "core tables: one entry per hex code");
        return NULL;
    }
    long values[3][MAX_CODES];
    if (longs_of(plaza, values[0], n, "IS_PLAZA") < 0 ||
        longs_of(colour, values[1], n, "COLOR_INDEX_OF") < 0 ||
        longs_of(stars, values[2], n, "STARS_OF_CODE") < 0 ||
        longs_of(codes, plain, 6, "the district codes") < 0)
        return NULL;
    for (Py_ssize_t code = 0; code < n; code++) {
        if (values[1][code] < -1 || values[1][code] >= COLOUR_COUNT) {
            PyErr_SetString(PyExc_ValueError, "core tables: a colour index out of range");
            return NULL;
        }
        is_plaza[code] = values[0][code] != 0;
        colour_of[code] = (int)values[1][code];
        stars_of[code] = (int)values[2][code];
    }
    for (int i = 0; i < 6; i++) {
        if (plain[i] < 0 || plain[i] >= n || (i < 5 && colour_of[plain[i]] != i)) {
            PyErr_SetString(PyExc_ValueError, "core tables: the district codes out of order");
            return NULL;
        }
    }
    barracks_doubled_mask = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(edges); i++) {
        long count;
        if (as_long(PyTuple_GET_ITEM(edges, i), &count) < 0) return NULL;
        if (count < 0 || count > 6) {
            PyErr_SetString(PyExc_ValueError, "core tables: an edge count out of range");
            return NULL;
        }
        barracks_doubled_mask |= 1L << count;
    }
    n_codes = (int)n;
    for (int level = 0; level < MAX_HEX_LEVEL; level++) {
        for (int code = 0; code < MAX_CODES; code++) Py_CLEAR(hexes_made[level][code]);
    }
    house = plain[0], market = plain[1], barracks = plain[2], temple = plain[3];
    garden = plain[4], market_plaza = plain[5];
    houses_doubled_from = limits[0], temples_doubled_from_level = limits[1];
    score_ready = 1;
    Py_RETURN_NONE;
}

/* The running score's slots, read once per call (new references). */
typedef struct {
    PyObject *score, *top;
    PyObject *stars, *values, *worth, *lakes;
    int doubled[5];
} Running;

static void running_release(Running *r) {
    Py_CLEAR(r->stars);
    Py_CLEAR(r->values);
    Py_CLEAR(r->worth);
    Py_CLEAR(r->lakes);
}

static int running_read(Running *r, PyObject *score, PyObject *top) {
    r->score = score, r->top = top;
    r->stars = r->values = r->worth = r->lakes = NULL;
    if (exactly(score, score_type, "a RunningScore") < 0) return -1;
    PyObject *doubled = slot_get(score, score_slot[S_DOUBLE], "double");
    if (doubled == NULL) return -1;
    int ok = PyTuple_Check(doubled) && PyTuple_GET_SIZE(doubled) == 5;
    for (int i = 0; ok && i < 5; i++) {
        r->doubled[i] = PyObject_IsTrue(PyTuple_GET_ITEM(doubled, i));
        ok = r->doubled[i] >= 0;
    }
    if (!ok) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a running score's double");
        return -1;
    }
    PyObject *stars = slot_get(score, score_slot[S_STARS], "stars");
    PyObject *values = stars ? slot_get(score, score_slot[S_VALUES], "values") : NULL;
    PyObject *worth = values ? slot_get(score, score_slot[S_WORTH], "worth") : NULL;
    PyObject *lakes = worth ? slot_get(score, score_slot[S_LAKES], "lakes") : NULL;
    if (lakes == NULL) return -1;
    if (!PyList_Check(stars) || PyList_GET_SIZE(stars) != COLOUR_COUNT || !PyList_Check(values) ||
        PyList_GET_SIZE(values) != COLOUR_COUNT || !PyDict_Check(worth) ||
        !PyAnySet_Check(lakes)) {
        PyErr_SetString(PyExc_TypeError, "not a running score");
        return -1;
    }
    r->stars = Py_NewRef(stars), r->values = Py_NewRef(values);
    r->worth = Py_NewRef(worth), r->lakes = Py_NewRef(lakes);
    return 0;
}

/* A hex of `top` (borrowed, or NULL: empty or an error), its level and code checked. */
static PyObject *hex_at(PyObject *top, long cell, long *level, long *code) {
    PyObject *hex = top_get(top, cell);
    if (hex == NULL) return NULL;
    if (!PyTuple_Check(hex) || PyTuple_GET_SIZE(hex) != 3) {
        PyErr_SetString(PyExc_TypeError, "a city's hex: a (level, code, stars) tuple");
        return NULL;
    }
    *level = PyLong_AsLong(PyTuple_GET_ITEM(hex, 0));
    *code = PyLong_AsLong(PyTuple_GET_ITEM(hex, 1));
    if (PyErr_Occurred()) return NULL;
    if (*code < 0 || *code >= n_codes) {
        PyErr_SetString(PyExc_ValueError, "a city's hex: a code out of range");
        return NULL;
    }
    return hex;
}

static int in_set(PyObject *set, long cell) {
    if (PySet_GET_SIZE(set) == 0) return 0;
    PyObject *key = cell_key(cell);
    if (key == NULL) return -1;
    int found = PySet_Contains(set, key);
    Py_DECREF(key);
    return found;
}

/* list[index] += delta, on a list of ints. */
static int add_at(PyObject *list, int index, long delta) {
    long old = PyLong_AsLong(PyList_GET_ITEM(list, index));
    if (old == -1 && PyErr_Occurred()) return -1;
    PyObject *sum = PyLong_FromLong(old + delta);
    if (sum == NULL) return -1;
    return PyList_SetItem(list, index, sum);
}

/* `RunningScore.worth_of`: what the market, barracks, temple or garden on `cell` adds. */
static long worth_of(Running *r, long cell, long level, long code) {
    long near_level, near_code;
    if (code == market) {
        int by_plaza = 0;
        for (int d = 0; d < 6; d++) {
            PyObject *near = hex_at(r->top, cell + step[d], &near_level, &near_code);
            if (near == NULL) {
                if (PyErr_Occurred()) return -1;
                continue;
            }
            if (near_code == market) return 0;
            by_plaza = by_plaza || near_code == market_plaza;
        }
        return by_plaza && r->doubled[1] ? 2 * level : level;
    }
    if (code == temple) {
        for (int d = 0; d < 6; d++) {
            if (top_get(r->top, cell + step[d]) == NULL) return PyErr_Occurred() ? -1 : 0;
        }
        return r->doubled[3] && level >= temples_doubled_from_level ? 2 * level : level;
    }
    if (code == barracks) {
        long edges = 0;
        for (int d = 0; d < 6; d++) {
            long around = cell + step[d];
            if (top_get(r->top, around) != NULL) continue;
            if (PyErr_Occurred()) return -1;
            int lake = in_set(r->lakes, around);
            if (lake < 0) return -1;
            edges += !lake;
        }
        if (!edges) return 0;
        return r->doubled[2] && (barracks_doubled_mask >> edges & 1) ? 2 * level : level;
    }
    if (r->doubled[4]) {
        for (int d = 0; d < 6; d++) {
            int lake = in_set(r->lakes, cell + step[d]);
            if (lake < 0) return -1;
            if (lake) return 2 * level;
        }
    }
    return level;
}

/* `RunningScore.rescore`. */
static int rescore(Running *r, long cell, long level, long code) {
    long value = worth_of(r, cell, level, code);
    if (value < 0) return -1;
    PyObject *key = PyLong_FromLong(cell);
    if (key == NULL) return -1;
    long before = 0;
    PyObject *old = PyDict_GetItemWithError(r->worth, key);
    if (old != NULL) {
        before = PyLong_AsLong(old);
    }
    PyObject *fresh = PyErr_Occurred() ? NULL : PyLong_FromLong(value);
    int status = fresh == NULL ? -1 : PyDict_SetItem(r->worth, key, fresh);
    Py_XDECREF(fresh);
    Py_DECREF(key);
    if (status < 0) return -1;
    return add_at(r->values, colour_of[code], value - before);
}

static int cells_of(PyObject *tuple, long *cells, const char *what) {
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != 3) {
        PyErr_Format(PyExc_TypeError, "%s: a tuple of three", what);
        return -1;
    }
    for (int j = 0; j < 3; j++) {
        if (as_long(PyTuple_GET_ITEM(tuple, j), &cells[j]) < 0) return -1;
    }
    return 0;
}

/* `lakes.lakes_closed_by` with `bounds_of(top)`: the empty cells a level-1 tile on
 * `filled` encloses, `starts` one empty ring cell of each run around it (at most nine);
 * a new set, empty when none. The regions of the runs are flooded in turns, a layer
 * each, in the same order as the Python function (which stays the reference): a region
 * is outside once it passes the city's bounds, or when it is the last one growing. The
 * cells are owned on a grid of the bounds with a margin of two (a start lies one cell
 * beyond them at most, a cell it reaches two). */
static PyObject *lakes_closed_by(PyObject *top, const long *filled, const long *starts, int count) {
    long q_low = filled[0] >> 12, q_high = q_low, r_low = filled[0] & 4095, r_high = r_low;
    Py_ssize_t at = 0;
    PyObject *key, *value;
    for (int j = 0; j < 3 + (int)PyDict_GET_SIZE(top); j++) {
        long cell;
        if (j < 3) {
            cell = filled[j];
        } else {
            if (!PyDict_Next(top, &at, &key, &value)) break;
            cell = PyLong_AsLong(key);
            if (cell == -1 && PyErr_Occurred()) return NULL;
        }
        long q = cell >> 12, r = cell & 4095;
        q_low = q < q_low ? q : q_low, q_high = q > q_high ? q : q_high;
        r_low = r < r_low ? r : r_low, r_high = r > r_high ? r : r_high;
    }
    long width = r_high - r_low + 5, rows = q_high - q_low + 5;
    if (width > 512 || rows > 512) {
        PyErr_SetString(PyExc_ValueError, "a city too large for the core's lakes");
        return NULL;
    }
    Py_ssize_t size = width * rows, capacity = size + RING_SIZE;
    int *owner = malloc(sizeof(int) * size);
    long *lists = malloc(sizeof(long) * capacity * (2 * count + 1));
    if (owner == NULL || lists == NULL) {
        free(owner);
        free(lists);
        return PyErr_NoMemory();
    }
#define GRID(cell) (((cell) >> 12) - q_low + 2) * width + ((cell) & 4095) - r_low + 2
    for (Py_ssize_t i = 0; i < size; i++) owner[i] = -1;
    long *frontier[RING_SIZE], *region[RING_SIZE], *grown = lists + 2 * count * capacity;
    Py_ssize_t frontier_len[RING_SIZE], region_len[RING_SIZE];
    int parent[RING_SIZE], outside[RING_SIZE];
    for (int k = 0; k < count; k++) {
        frontier[k] = lists + 2 * k * capacity, region[k] = frontier[k] + capacity;
        frontier[k][0] = region[k][0] = starts[k];
        frontier_len[k] = region_len[k] = 1;
        parent[k] = k, outside[k] = 0;
        owner[GRID(starts[k])] = k;
    }
    PyObject *enclosed = NULL;
    for (;;) {
        int growing[RING_SIZE], n_growing = 0, any_outside = 0;
        for (int k = 0; k < count; k++) {
            if (parent[k] != k) continue;
            any_outside = any_outside || outside[k];
            if (frontier_len[k] && !outside[k]) growing[n_growing++] = k;
        }
        if (n_growing == 0) break;
        if (n_growing == 1 && !any_outside) {
            outside[growing[0]] = 1;
            break;
        }
        for (int g = 0; g < n_growing; g++) {
            int k = growing[g];
            if (parent[k] != k || outside[k]) continue;
            Py_ssize_t n_grown = 0;
            for (Py_ssize_t i = 0; i < frontier_len[k] && !outside[k]; i++) {
                long cell = frontier[k][i];
                for (int d = 0; d < 6; d++) {
                    long near = cell + step[d];
                    if (near == filled[0] || near == filled[1] || near == filled[2]) continue;
                    if (top_get(top, near) != NULL) continue;
                    if (PyErr_Occurred()) goto done;
                    long q = near >> 12, r = near & 4095;
                    int other = q < q_low - 2 || q > q_high + 2 || r < r_low - 2 || r > r_high + 2
                                    ? -1
                                    : owner[GRID(near)];
                    if (other < 0) {
                        if (q < q_low || q > q_high || r < r_low || r > r_high) {
                            outside[k] = 1;
                            break;
                        }
                        owner[GRID(near)] = k;
                        grown[n_grown++] = near;
                        region[k][region_len[k]++] = near;
                        continue;
                    }
                    while (parent[other] != other) other = parent[other];
                    if (other == k) continue;
                    parent[other] = k;
                    outside[k] = outside[k] || outside[other];
                    memcpy(grown + n_grown, frontier[other], sizeof(long) * frontier_len[other]);
                    n_grown += frontier_len[other];
                    memcpy(region[k] + region_len[k], region[other],
                           sizeof(long) * region_len[other]);
                    region_len[k] += region_len[other];
                    frontier_len[other] = 0;
                }
            }
            if (outside[k]) {
                frontier_len[k] = 0;
            } else {
                memcpy(frontier[k], grown, sizeof(long) * n_grown);
                frontier_len[k] = n_grown;
            }
        }
    }
    enclosed = PySet_New(NULL);
    for (int k = 0; enclosed != NULL && k < count; k++) {
        if (parent[k] != k || outside[k]) continue;
        for (Py_ssize_t i = 0; i < region_len[k]; i++) {
            PyObject *cell = PyLong_FromLong(region[k][i]);
            if (cell == NULL || PySet_Add(enclosed, cell) < 0) {
                Py_XDECREF(cell);
                Py_CLEAR(enclosed);
                break;
            }
            Py_DECREF(cell);
        }
    }
#undef GRID
done:
    free(owner);
    free(lists);
    return enclosed;
}

static int placed_in(Running *r, long triangle, long *cells, long *codes, PyObject *covered,
                     long level) {
    PyObject *score = r->score, *top = r->top;
    int markets_moved = 0, houses_covered = 0, n_houses = 0;
    long houses[3];
    slot_set(score, score_slot[S_POINTS], Py_None);
    /* `tile_traits`, worked out on the spot. */
    for (int j = 0; j < 3; j++) {
        long code = codes[j];
        markets_moved = markets_moved || code == market || code == market_plaza;
        if (code == house) houses[n_houses++] = cells[j];
    }
    if (covered != Py_None) {
        for (int j = 0; j < 3; j++) {
            PyObject *hex = PyTuple_GET_ITEM(covered, j);
            long old[3];
            if (cells_of(hex, old, "a covered hex") < 0) return -1;
            long code = old[1];
            if (code < 0 || code >= n_codes) {
                PyErr_SetString(PyExc_ValueError, "a covered hex: a code out of range");
                return -1;
            }
            if (is_plaza[code]) {
                if (add_at(r->stars, colour_of[code], -old[2]) < 0) return -1;
                markets_moved = markets_moved || code == market_plaza;
            } else if (code == house) {
                houses_covered = 1;
            } else {
                PyObject *key = PyLong_FromLong(cells[j]);
                if (key == NULL) return -1;
                PyObject *value = PyDict_GetItemWithError(r->worth, key);
                long worth = value == NULL ? 0 : PyLong_AsLong(value);
                int status = PyErr_Occurred() ? -1 : 0;
                if (value != NULL && status == 0) {
                    status = PyDict_DelItem(r->worth, key);
                    if (status == 0) status = add_at(r->values, colour_of[code], -worth);
                    markets_moved = markets_moved || code == market;
                }
                Py_DECREF(key);
                if (status < 0) return -1;
            }
        }
    }
    for (int j = 0; j < 3; j++) {
        if (is_plaza[codes[j]] && add_at(r->stars, colour_of[codes[j]], stars_of[codes[j]]) < 0)
            return -1;
    }
    if (n_houses || houses_covered) {
        slot_set(score, score_slot[S_HOUSE_VALUE], Py_None);
        if (houses_covered) slot_set(score, score_slot[S_HOUSE_BEST], Py_None);
        if (n_houses) {
            PyObject *old = slot_get(score, score_slot[S_NEW_HOUSES], "new_houses");
            if (old == NULL) return -1;
            if (!PyTuple_Check(old)) {
                PyErr_SetString(PyExc_TypeError, "a running score's new houses: a tuple");
                return -1;
            }
            Py_ssize_t size = PyTuple_GET_SIZE(old);
            PyObject *grown = PyTuple_New(size + n_houses);
            if (grown == NULL) return -1;
            for (Py_ssize_t i = 0; i < size; i++) {
                Py_INCREF(PyTuple_GET_ITEM(old, i));
                PyTuple_SET_ITEM(grown, i, PyTuple_GET_ITEM(old, i));
            }
            for (int i = 0; i < n_houses; i++) {
                PyObject *cell = PyLong_FromLong(houses[i]);
                if (cell == NULL) {
                    Py_DECREF(grown);
                    return -1;
                }
                PyTuple_SET_ITEM(grown, size + i, cell);
            }
            slot_put(score, score_slot[S_NEW_HOUSES], grown);
        }
    }
    long y = triangle >> 1;
    int kind = (int)(triangle & 1), lakes_closed = 0;
    long hex_level, hex_code;
    if (level == 1) {
        int filled_lake = in_set(r->lakes, cells[0]);
        if (filled_lake < 0) return -1;
        int gardens_watch = filled_lake && r->doubled[4];
        long again_cell[RING_SIZE], again_level[RING_SIZE], again_code[RING_SIZE];
        int n_again = 0, empty = 0;
        for (int j = 0; j < RING_SIZE; j++) {
            long cell = y + ring_cycle[kind][j];
            if (hex_at(top, cell, &hex_level, &hex_code) == NULL) {
                if (PyErr_Occurred()) return -1;
                empty |= 1 << j;
            } else if (hex_code == temple || hex_code == barracks ||
                       (markets_moved && hex_code == market) ||
                       (gardens_watch && hex_code == garden)) {
                again_cell[n_again] = cell, again_level[n_again] = hex_level;
                again_code[n_again++] = hex_code;
            }
        }
        if (filled_lake) {
            PyObject *cell_tuple = Py_BuildValue("(lll)", cells[0], cells[1], cells[2]);
            PyObject *smaller =
                cell_tuple ? PyObject_CallMethodOneArg(r->lakes, s_difference, cell_tuple) : NULL;
            Py_XDECREF(cell_tuple);
            if (smaller == NULL) return -1;
            slot_set(score, score_slot[S_LAKES], smaller);
            Py_SETREF(r->lakes, smaller);
        } else {
            int whole = (1 << RING_SIZE) - 1;
            int starts = empty & ~((empty << 1 | empty >> 8) & whole);
            if (starts & (starts - 1)) {
                /* `RunningScore.close_lakes`. */
                long run_starts[RING_SIZE];
                int count = 0;
                for (int j = 0; j < RING_SIZE; j++) {
                    if (starts >> j & 1) run_starts[count++] = y + ring_cycle[kind][j];
                }
                PyObject *enclosed = lakes_closed_by(top, cells, run_starts, count);
                if (enclosed == NULL) return -1;
                lakes_closed = PySet_GET_SIZE(enclosed) > 0;
                if (lakes_closed) {
                    PyObject *lakes = PyNumber_Or(r->lakes, enclosed);
                    if (lakes == NULL) {
                        Py_DECREF(enclosed);
                        return -1;
                    }
                    slot_set(score, score_slot[S_LAKES], lakes);
                    Py_SETREF(r->lakes, lakes);
                }
                Py_DECREF(enclosed);
            }
        }
        for (int i = 0; i < n_again; i++) {
            if (rescore(r, again_cell[i], again_level[i], again_code[i]) < 0) return -1;
        }
    } else if (markets_moved) {
        for (int j = 0; j < RING_SIZE; j++) {
            long cell = y + ring_any[kind][j];
            if (hex_at(top, cell, &hex_level, &hex_code) == NULL) {
                if (PyErr_Occurred()) return -1;
            } else if (hex_code == market && rescore(r, cell, hex_level, market) < 0) {
                return -1;
            }
        }
    }
    for (int j = 0; j < 3; j++) {
        long code = codes[j];
        if ((code == market || code == barracks || code == temple || code == garden) &&
            rescore(r, cells[j], level, code) < 0)
            return -1;
    }
    if (lakes_closed) {
        PyObject *watched = PyDict_Keys(r->worth);
        if (watched == NULL) return -1;
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(watched); i++) {
            long cell = PyLong_AsLong(PyList_GET_ITEM(watched, i));
            if ((cell == -1 && PyErr_Occurred()) ||
                hex_at(top, cell, &hex_level, &hex_code) == NULL) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "a scored cell is empty");
                Py_DECREF(watched);
                return -1;
            }
            if ((hex_code == barracks || hex_code == garden) &&
                rescore(r, cell, hex_level, hex_code) < 0) {
                Py_DECREF(watched);
                return -1;
            }
        }
        Py_DECREF(watched);
    }
    return 0;
}

static int score_checked(void) {
    if (!score_ready) {
        PyErr_SetString(PyExc_RuntimeError, "core score tables not set up");
        return -1;
    }
    return 0;
}

static PyObject *core_placed(PyObject *self, PyObject *args) {
    PyObject *score, *top, *cell_tuple, *code_tuple, *covered;
    long triangle, level, cells[3], codes[3];
    if (!PyArg_ParseTuple(args, "OO!lOOOl", &score, &PyDict_Type, &top, &triangle, &cell_tuple,
                          &code_tuple, &covered, &level))
        return NULL;
    if (score_checked() < 0 || cells_of(cell_tuple, cells, "cells") < 0 ||
        cells_of(code_tuple, codes, "codes") < 0)
        return NULL;
    for (int j = 0; j < 3; j++) {
        if (codes[j] < 0 || codes[j] >= n_codes) {
            PyErr_SetString(PyExc_ValueError, "codes: a hex code out of range");
            return NULL;
        }
    }
    if (covered != Py_None && (!PyTuple_Check(covered) || PyTuple_GET_SIZE(covered) != 3)) {
        PyErr_SetString(PyExc_TypeError, "covered: None or three hexes");
        return NULL;
    }
    if (triangle < 0 || level < 1) {
        PyErr_SetString(PyExc_ValueError, "a triangle id and a level of 1 or more");
        return NULL;
    }
    Running r;
    if (running_read(&r, score, top) < 0) return NULL;
    int status = placed_in(&r, triangle, cells, codes, covered, level);
    running_release(&r);
    if (status < 0) return NULL;
    Py_RETURN_NONE;
}

/* `largest_house_group`: (size, value) of the largest group of edge-connected houses
 * holding one of `starts`. */
static int largest_house_group(PyObject *top, PyObject *starts, long *best_size,
                               long *best_value) {
    long seen[MAX_FLOOD], stack[MAX_FLOOD];
    int n_seen = 0;
    *best_size = *best_value = 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(starts);
    PyObject **items = PySequence_Fast_ITEMS(starts);
    for (Py_ssize_t i = 0; i < n; i++) {
        long start = PyLong_AsLong(items[i]);
        if (start == -1 && PyErr_Occurred()) return -1;
        int known = 0;
        for (int k = 0; k < n_seen && !known; k++) known = seen[k] == start;
        if (known) continue;
        if (n_seen == MAX_FLOOD) goto too_large;
        seen[n_seen++] = start;
        long size = 0, value = 0, level, code;
        int depth = 0;
        stack[depth++] = start;
        while (depth) {
            long cell = stack[--depth];
            size++;
            if (hex_at(top, cell, &level, &code) == NULL) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "a house's cell is empty");
                return -1;
            }
            value += level;
            for (int d = 0; d < 6; d++) {
                long near = cell + step[d];
                known = 0;
                for (int k = 0; k < n_seen && !known; k++) known = seen[k] == near;
                if (known) continue;
                if (hex_at(top, near, &level, &code) == NULL) {
                    if (PyErr_Occurred()) return -1;
                    continue;
                }
                if (code != house) continue;
                if (n_seen == MAX_FLOOD) goto too_large;
                seen[n_seen++] = near;
                stack[depth++] = near;
            }
        }
        if (size > *best_size || (size == *best_size && value > *best_value))
            *best_size = size, *best_value = value;
    }
    return 0;
too_large:
    PyErr_SetString(PyExc_ValueError, "a city too large for the core's house flood");
    return -1;
}

/* `RunningScore.houses`. */
static long houses_of(Running *r) {
    PyObject *score = r->score, *known = slot_get(score, score_slot[S_HOUSE_VALUE], "house_value");
    if (known == NULL) return -1;
    if (known != Py_None) return PyLong_AsLong(known);
    PyObject *best = slot_get(score, score_slot[S_HOUSE_BEST], "house_best");
    if (best == NULL) return -1;
    Py_INCREF(best);
    long size, value;
    int status = 0;
    if (best == Py_None) {
        PyObject *starts = PyList_New(0);
        Py_ssize_t at = 0;
        PyObject *cell, *hex;
        while (starts && PyDict_Next(r->top, &at, &cell, &hex)) {
            if (!PyTuple_Check(hex) || PyTuple_GET_SIZE(hex) != 3) {
                PyErr_SetString(PyExc_TypeError, "a city's hex: a (level, code, stars) tuple");
                Py_CLEAR(starts);
                break;
            }
            long code = PyLong_AsLong(PyTuple_GET_ITEM(hex, 1));
            if ((code == -1 && PyErr_Occurred()) ||
                (code == house && PyList_Append(starts, cell) < 0))
                Py_CLEAR(starts);
        }
        status = starts ? largest_house_group(r->top, starts, &size, &value) : -1;
        Py_XDECREF(starts);
    } else {
        PyObject *fresh = Py_XNewRef(slot_get(score, score_slot[S_NEW_HOUSES], "new_houses"));
        status = fresh == NULL ? -1 : 0;
        if (status == 0 && (!PyTuple_Check(best) || PyTuple_GET_SIZE(best) != 2 ||
                            !PyTuple_Check(fresh))) {
            PyErr_SetString(PyExc_TypeError, "a running score's house groups");
            status = -1;
        }
        if (status == 0) {
            size = PyLong_AsLong(PyTuple_GET_ITEM(best, 0));
            value = PyLong_AsLong(PyTuple_GET_ITEM(best, 1));
            status = PyErr_Occurred() ? -1 : 0;
        }
        if (status == 0 && PyTuple_GET_SIZE(fresh)) {
            long new_size, new_value;
            status = largest_house_group(r->top, fresh, &new_size, &new_value);
            if (status == 0 && (new_size > size || (new_size == size && new_value > value)))
                size = new_size, value = new_value;
        }
        Py_XDECREF(fresh);
    }
    if (status < 0) {
        Py_DECREF(best);
        return -1;
    }
    PyObject *kept = (best != Py_None && PyTuple_GET_SIZE(best) == 2 &&
                      PyLong_AsLong(PyTuple_GET_ITEM(best, 0)) == size &&
                      PyLong_AsLong(PyTuple_GET_ITEM(best, 1)) == value)
                         ? Py_NewRef(best)
                         : Py_BuildValue("(ll)", size, value);
    Py_DECREF(best);
    if (slot_put(score, score_slot[S_HOUSE_BEST], kept) < 0 ||
        slot_put(score, score_slot[S_NEW_HOUSES], PyTuple_New(0)) < 0)
        return -1;
    if (r->doubled[0] && value >= houses_doubled_from) value *= 2;
    return slot_put(score, score_slot[S_HOUSE_VALUE], PyLong_FromLong(value)) < 0 ? -1 : value;
}

/* `RunningScore.total`. */
static PyObject *total_of(PyObject *score, PyObject *top) {
    if (score_checked() < 0 || exactly(score, score_type, "a RunningScore") < 0) return NULL;
    PyObject *points = slot_get(score, score_slot[S_POINTS], "points");
    if (points == NULL || points != Py_None) return Py_XNewRef(points);
    Running r;
    if (running_read(&r, score, top) < 0) return NULL;
    /* `values` holds no houses' value (its entry stays 0): `houses_of` is theirs. */
    long total = houses_of(&r);
    if (total >= 0) {
        total *= PyLong_AsLong(PyList_GET_ITEM(r.stars, 0));
        for (int i = 0; i < COLOUR_COUNT; i++) {
            total += PyLong_AsLong(PyList_GET_ITEM(r.stars, i)) *
                     PyLong_AsLong(PyList_GET_ITEM(r.values, i));
        }
    }
    running_release(&r);
    if (PyErr_Occurred()) return NULL;
    points = PyLong_FromLong(total);
    if (points != NULL) slot_set(score, score_slot[S_POINTS], points);
    return points;
}

static PyObject *core_total(PyObject *self, PyObject *args) {
    PyObject *score, *top;
    if (!PyArg_ParseTuple(args, "OO!", &score, &PyDict_Type, &top)) return NULL;
    return total_of(score, top);
}

/* --- second stage, continued: a city's copy and placement, and the turn around them -- */

/* `objects_setup` hands over the classes whose slots the core reads and writes, and
 * what a turn reads: each tile's hex codes (`rules.TILE_HEXES`), the placements' texts
 * (`city_cache.PLACEMENT_TEXTS`), the cells each action covers (`rules.ACTION_CELLS`)
 * and the quarry's code. `copy_city` and `place` are `City.copy` and `City.place` (with
 * what the city keeps: `CityCache.copy`, `RunningScore.copy`, `CityCache.update_legal`,
 * `RunningScore.placed`); `take_and_place`, `apply_legal`, `score` and `copy_state` are
 * the functions of `rules` and `AkropolisState.copy` of the same names. */

static PyObject *tile_hexes, *placement_texts;
static long action_cells[2][3][3];
static long quarry;
static PyObject *s_site, *s_stacks, *s_stones, *s_cities, *s_shared_cities, *s_turn, *s_players,
    *s_variants, *s_size, *s_tiles, *s_triangles, *s_points_method;

static int slot_offsets(PyTypeObject *type, const char **names, int count, Py_ssize_t *offsets) {
    for (int i = 0; i < count; i++) {
        PyObject *descr = PyObject_GetAttrString((PyObject *)type, names[i]);
        if (descr == NULL) return -1;
        int ok = Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX &&
                 ((PyMemberDescrObject *)descr)->d_common.d_type == type;
        if (ok) offsets[i] = ((PyMemberDescrObject *)descr)->d_member->offset;
        Py_DECREF(descr);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "core classes: %.80s.%s is not a slot", type->tp_name,
                         names[i]);
            return -1;
        }
    }
    return 0;
}

static PyObject *core_objects_setup(PyObject *self, PyObject *args) {
    PyTypeObject *city, *cache, *score;
    PyObject *hexes, *texts, *cells;
    long quarry_code;
    if (!PyArg_ParseTuple(args, "O!O!O!O!OO!l", &PyType_Type, &city, &PyType_Type, &cache,
                          &PyType_Type, &score, &PyDict_Type, &hexes, &texts, &PyTuple_Type,
                          &cells, &quarry_code))
        return NULL;
    Py_CLEAR(city_type);
    Py_CLEAR(cache_type);
    Py_CLEAR(score_type);
    if (slot_offsets(city, city_names, C_COUNT, city_slot) < 0 ||
        slot_offsets(cache, cache_names, K_COUNT, cache_slot) < 0 ||
        slot_offsets(score, score_names, S_COUNT, score_slot) < 0 ||
        !sized_tuple(cells, 2, "ACTION_CELLS"))
        return NULL;
    for (int kind = 0; kind < 2; kind++) {
        PyObject *actions = sized_tuple(PyTuple_GET_ITEM(cells, kind), 3, "an action's cells");
        if (actions == NULL) return NULL;
        for (int a = 0; a < 3; a++) {
            if (longs_of(PyTuple_GET_ITEM(actions, a), action_cells[kind][a], 3, "cells") < 0)
                return NULL;
        }
    }
    /* Every tile's codes are checked here, once: a turn reads them unchecked. */
    Py_ssize_t at = 0;
    PyObject *key, *codes;
    while (PyDict_Next(hexes, &at, &key, &codes)) {
        long code[3];
        if (!PyLong_Check(key) || longs_of(codes, code, 3, "a tile's hexes") < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "core tables: a tile id");
            return NULL;
        }
        for (int j = 0; j < 3; j++) {
            if (code[j] < 0 || code[j] >= n_codes) {
                PyErr_SetString(PyExc_ValueError, "core tables: a tile's hex code out of range");
                return NULL;
            }
        }
    }
    Py_XSETREF(tile_hexes, Py_NewRef(hexes));
    Py_XSETREF(placement_texts, Py_NewRef(texts));
    quarry = quarry_code;
    city_type = (PyTypeObject *)Py_NewRef(city);
    cache_type = (PyTypeObject *)Py_NewRef(cache);
    score_type = (PyTypeObject *)Py_NewRef(score);
    Py_RETURN_NONE;
}

/* A new object of a slotted class, every slot unset (`cls.__new__(cls)`). */
static PyObject *bare(PyTypeObject *type) { return type->tp_alloc(type, 0); }

/* Share a slot's value with the twin (an unset slot: AttributeError, as Python's copy). */
static int share(PyObject *twin, PyObject *from, Py_ssize_t offset, const char *name) {
    PyObject *value = slot_get(from, offset, name);
    if (value == NULL) return -1;
    slot_set(twin, offset, value);
    return 0;
}

/* `RunningScore.copy`. */
static PyObject *copy_score(PyObject *score) {
    if (exactly(score, score_type, "a RunningScore") < 0) return NULL;
    PyObject *twin = bare(score_type);
    if (twin == NULL) return NULL;
    static const int shared[] = {S_VARIANTS, S_DOUBLE, S_LAKES, S_HOUSE_VALUE,
                                 S_HOUSE_BEST, S_NEW_HOUSES, S_POINTS};
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
        if (share(twin, score, score_slot[shared[i]], score_names[shared[i]]) < 0) goto fail;
    }
    static const int lists[] = {S_STARS, S_VALUES};
    for (int i = 0; i < 2; i++) {
        PyObject *list = slot_get(score, score_slot[lists[i]], score_names[lists[i]]);
        if (list == NULL || slot_put(twin, score_slot[lists[i]], PySequence_List(list)) < 0)
            goto fail;
    }
    PyObject *worth = slot_get(score, score_slot[S_WORTH], "worth");
    if (worth == NULL) goto fail;
    if (!PyDict_Check(worth)) {
        PyErr_SetString(PyExc_TypeError, "a running score's worth: a dict");
        goto fail;
    }
    if (slot_put(twin, score_slot[S_WORTH], PyDict_Copy(worth)) < 0) goto fail;
    return twin;
fail:
    Py_DECREF(twin);
    return NULL;
}

/* `CityCache.copy`. */
static PyObject *copy_cache(PyObject *kept) {
    if (exactly(kept, cache_type, "a CityCache") < 0) return NULL;
    PyObject *twin = bare(cache_type);
    if (twin == NULL) return NULL;
    static const int shared[] = {K_LEGAL, K_LEGAL_SET, K_LEGAL_TEXTS, K_PENDING,
                                 K_TEXT, K_HEX_TEXTS, K_CHANGED_CELLS};
    for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
        if (share(twin, kept, cache_slot[shared[i]], cache_names[shared[i]]) < 0) goto fail;
    }
    if (SLOT(kept, cache_slot[K_LEGAL]) == Py_None) {
        slot_set(twin, cache_slot[K_LEGAL_SHARED], Py_False);
    } else {
        slot_set(twin, cache_slot[K_LEGAL_SHARED], Py_True);
        slot_set(kept, cache_slot[K_LEGAL_SHARED], Py_True);
    }
    PyObject *score = slot_get(kept, cache_slot[K_SCORE], "score");
    if (score == NULL) goto fail;
    if (score == Py_None)
        slot_set(twin, cache_slot[K_SCORE], Py_None);
    else if (slot_put(twin, cache_slot[K_SCORE], copy_score(score)) < 0)
        goto fail;
    return twin;
fail:
    Py_DECREF(twin);
    return NULL;
}

/* `City.copy`. */
static PyObject *copy_city(PyObject *city) {
    if (exactly(city, city_type, "a City") < 0) return NULL;
    PyObject *twin = bare(city_type);
    if (twin == NULL) return NULL;
    for (int i = C_TOP; i <= C_TILE_AT; i++) {
        PyObject *cells = slot_get(city, city_slot[i], city_names[i]);
        if (cells == NULL) goto fail;
        if (!PyDict_Check(cells)) {
            PyErr_Format(PyExc_TypeError, "a city's %s: a dict", city_names[i]);
            goto fail;
        }
        if (slot_put(twin, city_slot[i], PyDict_Copy(cells)) < 0) goto fail;
    }
    if (share(twin, city, city_slot[C_TILES], "tiles") < 0) goto fail;
    PyObject *kept = slot_get(city, city_slot[C_KEPT], "kept");
    if (kept == NULL || slot_put(twin, city_slot[C_KEPT], copy_cache(kept)) < 0) goto fail;
    return twin;
fail:
    Py_DECREF(twin);
    return NULL;
}

static PyObject *core_copy_city(PyObject *self, PyObject *city) { return copy_city(city); }

/* `tuple + tuple`, into the slot. */
static int slot_extend(PyObject *object, Py_ssize_t offset, const char *name, PyObject *more) {
    PyObject *old = slot_get(object, offset, name);
    if (old == NULL) return -1;
    if (!PyTuple_Check(old)) {
        PyErr_Format(PyExc_TypeError, "%s: a tuple", name);
        return -1;
    }
    return slot_put(object, offset, PySequence_Concat(old, more));
}

/* The hex (level, code, stars) a tile puts on a cell (a new reference): made once per
 * level and code and kept (a tuple, never changed), so a placement makes no new object. */
static PyObject *hex_of(long level, long code) {
    if (level < 0 || level >= MAX_HEX_LEVEL)
        return Py_BuildValue("(lll)", level, code, (long)stars_of[code]);
    PyObject **kept = &hexes_made[level][code];
    if (*kept == NULL) *kept = Py_BuildValue("(lll)", level, code, (long)stars_of[code]);
    return Py_XNewRef(*kept);
}

/* `City.place`: the quarries covered, or -1 with an exception set. */
static long place_in(PyObject *city, long triangle, PyObject *cell_tuple, PyObject *code_tuple,
                     PyObject *uid) {
    long cells[3], codes[3];
    if (exactly(city, city_type, "a City") < 0 || score_checked() < 0 ||
        cells_of(cell_tuple, cells, "cells") < 0 || cells_of(code_tuple, codes, "codes") < 0)
        return -1;
    for (int j = 0; j < 3; j++) {
        if (codes[j] < 0 || codes[j] >= n_codes) {
            PyErr_SetString(PyExc_ValueError, "codes: a hex code out of range");
            return -1;
        }
    }
    if (triangle < 0) {
        PyErr_SetString(PyExc_ValueError, "triangle: a non-negative id");
        return -1;
    }
    PyObject *top = slot_get(city, city_slot[C_TOP], "top");
    PyObject *tile_at = top ? slot_get(city, city_slot[C_TILE_AT], "tile_at") : NULL;
    PyObject *tiles = tile_at ? slot_get(city, city_slot[C_TILES], "tiles") : NULL;
    PyObject *kept = tiles ? slot_get(city, city_slot[C_KEPT], "kept") : NULL;
    if (kept == NULL) return -1;
    if (!PyDict_Check(top) || !PyDict_Check(tile_at) || exactly(kept, cache_type, "a CityCache") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a city's cells: dicts");
        return -1;
    }
    long level = 1, quarries = 0, hex_level, hex_code;
    PyObject *covered = Py_None;
    PyObject *below = hex_at(top, cells[0], &hex_level, &hex_code);
    if (below == NULL && PyErr_Occurred()) return -1;
    if (below != NULL) {
        /* Stacked: one level above the three hexes below, all on one level. */
        PyObject *under[3] = {below, NULL, NULL};
        level = hex_level + 1;
        quarries = hex_code == quarry;
        for (int j = 1; j < 3; j++) {
            under[j] = hex_at(top, cells[j], &hex_level, &hex_code);
            if (under[j] == NULL) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "a tile over an empty cell");
                return -1;
            }
            quarries += hex_code == quarry;
        }
        covered = PyTuple_Pack(3, under[0], under[1], under[2]);
        if (covered == NULL) return -1;
    } else {
        Py_INCREF(covered);
    }
    int status = 0;
    for (int j = 0; j < 3 && status == 0; j++) {
        PyObject *hex = hex_of(level, codes[j]);
        PyObject *cell = PyTuple_GET_ITEM(cell_tuple, j);
        status = hex == NULL ? -1 : PyDict_SetItem(top, cell, hex);
        Py_XDECREF(hex);
        if (status == 0) status = PyDict_SetItem(tile_at, cell, uid);
    }
    if (status == 0) {
        long count = PyLong_AsLong(tiles);
        status = count == -1 && PyErr_Occurred()
                     ? -1
                     : slot_put(city, city_slot[C_TILES], PyLong_FromLong(count + 1));
    }
    /* What the city keeps follows the placement, as in `City.place`. */
    if (status == 0) {
        slot_set(kept, cache_slot[K_TEXT], Py_None);
        PyObject *hex_texts = slot_get(kept, cache_slot[K_HEX_TEXTS], "hex_texts");
        status = hex_texts == NULL ? -1 : 0;
        if (status == 0 && hex_texts != Py_None)
            status = slot_extend(kept, cache_slot[K_CHANGED_CELLS], "changed_cells", cell_tuple);
    }
    PyObject *legal = status == 0 ? slot_get(kept, cache_slot[K_LEGAL], "legal") : NULL;
    if (legal == NULL) status = -1;
    if (status == 0 && legal != Py_None) {
        PyObject *shared = slot_get(kept, cache_slot[K_LEGAL_SHARED], "legal_shared");
        int is_shared = shared == NULL ? -1 : PyObject_IsTrue(shared);
        if (is_shared < 0) {
            status = -1;
        } else if (is_shared) {
            PyObject *update = Py_BuildValue("((ll))", triangle, level);
            status = update == NULL ? -1 : slot_extend(kept, cache_slot[K_PENDING], "pending", update);
            Py_XDECREF(update);
        } else {
            PyObject *legal_set = slot_get(kept, cache_slot[K_LEGAL_SET], "legal_set");
            PyObject *texts = legal_set ? slot_get(kept, cache_slot[K_LEGAL_TEXTS], "legal_texts") : NULL;
            if (texts == NULL) {
                status = -1;
            } else if (IS_KEPT_LEGAL(legal)) {
                status = update_legal_in(top, legal, legal_set, texts, placement_texts, triangle,
                                         level, 1);
            } else if (!PyList_Check(legal) || !PySet_Check(legal_set)) {
                PyErr_SetString(PyExc_TypeError, "a city's legal triangles: a list and a set");
                status = -1;
            } else {
                /* The city's list and set become the core's LegalTriangles, in both slots,
                 * at its first update here. */
                PyObject *made = (PyObject *)legal_from_list(legal);
                if (made == NULL) {
                    status = -1;
                } else {
                    slot_set(kept, cache_slot[K_LEGAL], made);
                    slot_set(kept, cache_slot[K_LEGAL_SET], made);
                    status = update_legal_in(top, made, made, texts, placement_texts, triangle,
                                             level, 1);
                    Py_DECREF(made);
                }
            }
        }
    }
    PyObject *score = status == 0 ? slot_get(kept, cache_slot[K_SCORE], "score") : NULL;
    if (score == NULL) status = -1;
    if (status == 0 && score != Py_None) {
        Running r;
        status = running_read(&r, score, top);
        if (status == 0) {
            status = placed_in(&r, triangle, cells, codes, covered, level);
            running_release(&r);
        }
    }
    Py_DECREF(covered);
    return status < 0 ? -1 : quarries;
}

static PyObject *core_place(PyObject *self, PyObject *args) {
    PyObject *city, *cells, *codes, *uid;
    long triangle;
    if (!PyArg_ParseTuple(args, "OlOOO", &city, &triangle, &cells, &codes, &uid)) return NULL;
    long quarries = place_in(city, triangle, cells, codes, uid);
    return quarries < 0 ? NULL : PyLong_FromLong(quarries);
}

/* An attribute that must be a list (a new reference). */
static PyObject *list_attribute(PyObject *object, PyObject *name) {
    PyObject *value = PyObject_GetAttr(object, name);
    if (value != NULL && !PyList_Check(value)) {
        PyErr_Format(PyExc_TypeError, "%U: a list", name);
        Py_CLEAR(value);
    }
    return value;
}

static long long_attribute(PyObject *object, PyObject *name) {
    PyObject *value = PyObject_GetAttr(object, name);
    if (value == NULL) return -1;
    long number = PyLong_AsLong(value);
    Py_DECREF(value);
    return number;
}

/* `rules.take_and_place`. */
static int take_and_place_in(PyObject *state, long player, Py_ssize_t position, long triangle,
                             PyObject *cells) {
    int status = -1;
    PyObject *site = list_attribute(state, s_site);
    PyObject *stones = site ? list_attribute(state, s_stones) : NULL;
    PyObject *cities = stones ? list_attribute(state, s_cities) : NULL;
    PyObject *tile_id = NULL;
    if (cities == NULL) goto done;
    if (position < 0 || position >= PyList_GET_SIZE(site)) {
        PyErr_SetString(PyExc_IndexError, "pop index out of range");
        goto done;
    }
    if (player < 0 || player >= PyList_GET_SIZE(cities) || player >= PyList_GET_SIZE(stones) ||
        player >= 62) {
        PyErr_SetString(PyExc_IndexError, "a player out of range");
        goto done;
    }
    tile_id = Py_NewRef(PyList_GET_ITEM(site, position));
    if (PyList_SetSlice(site, position, position + 1, NULL) < 0) goto done;
    /* `city_to_change`: the city copied first if another state shares it. */
    long shared = long_attribute(state, s_shared_cities);
    if (shared == -1 && PyErr_Occurred()) goto done;
    PyObject *city = PyList_GET_ITEM(cities, player);
    /* Another kind of city (the C prototype's, in the benchmarks) is asked by its methods. */
    int ours = Py_TYPE(city) == city_type;
    if (shared >> player & 1) {
        PyObject *twin = ours ? copy_city(city) : PyObject_CallMethod(city, "copy", NULL);
        if (twin == NULL) goto done;
        PyList_SetItem(cities, player, twin);
        city = twin;
        PyObject *rest = PyLong_FromLong(shared & ~(1L << player));
        if (rest == NULL || PyObject_SetAttr(state, s_shared_cities, rest) < 0) {
            Py_XDECREF(rest);
            goto done;
        }
        Py_DECREF(rest);
    }
    if (tile_hexes == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "core classes not set up");
        goto done;
    }
    PyObject *codes = PyDict_GetItemWithError(tile_hexes, tile_id);
    if (codes == NULL) {
        if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, tile_id);
        goto done;
    }
    Py_INCREF(city);
    long quarries = -1;
    if (ours) {
        quarries = place_in(city, triangle, cells, codes, tile_id);
    } else {
        PyObject *covered = PyObject_CallMethod(city, "place", "lOOO", triangle, cells, codes,
                                                tile_id);
        if (covered != NULL) {
            quarries = PyLong_AsLong(covered);
            Py_DECREF(covered);
            if (quarries < 0 && !PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a city covered fewer than no quarries");
        }
    }
    Py_DECREF(city);
    if (quarries < 0) goto done;
    if (add_at(stones, (int)player, quarries - (long)position) < 0) goto done;
    long turn = long_attribute(state, s_turn);
    if (turn == -1 && PyErr_Occurred()) goto done;
    PyObject *next = PyLong_FromLong(turn + 1);
    if (next == NULL) goto done;
    int set = PyObject_SetAttr(state, s_turn, next);
    Py_DECREF(next);
    if (set < 0) goto done;
    if (PyList_GET_SIZE(site) == 1) {
        /* The next stack revealed behind the last tile. */
        PyObject *stacks = list_attribute(state, s_stacks);
        if (stacks == NULL) goto done;
        if (PyList_GET_SIZE(stacks)) {
            PyObject *stack = Py_NewRef(PyList_GET_ITEM(stacks, 0));
            int moved = PyList_SetSlice(stacks, 0, 1, NULL);
            if (moved == 0) moved = PyList_SetSlice(site, 1, 1, stack);
            Py_DECREF(stack);
            if (moved < 0) {
                Py_DECREF(stacks);
                goto done;
            }
        }
        Py_DECREF(stacks);
    }
    status = 0;
done:
    Py_XDECREF(tile_id);
    Py_XDECREF(site);
    Py_XDECREF(stones);
    Py_XDECREF(cities);
    return status;
}

static PyObject *core_take_and_place(PyObject *self, PyObject *args) {
    PyObject *state, *cells;
    long player, triangle;
    Py_ssize_t position;
    if (!PyArg_ParseTuple(args, "OlnlO", &state, &player, &position, &triangle, &cells))
        return NULL;
    if (take_and_place_in(state, player, position, triangle, cells) < 0) return NULL;
    Py_RETURN_NONE;
}

/* The legal actions' class (`actions.LegalActions`, handed over by `legal_setup`) and
 * its slots. */
static PyTypeObject *legal_type;
enum { L_CITY, L_CITY_TILES, L_SIZE, L_TILES, L_TRIANGLES, L_COUNT };
static const char *legal_names[L_COUNT] = {"city", "city_tiles", "size", "tiles", "triangles"};
static Py_ssize_t legal_slot[L_COUNT];

/* `rules.apply_legal`. */
static PyObject *core_apply_legal(PyObject *self, PyObject *args) {
    PyObject *state, *legal;
    Py_ssize_t index;
    if (!PyArg_ParseTuple(args, "OOn", &state, &legal, &index)) return NULL;
    /* The legal actions' slots read where they are kept (`legal_setup`), or asked. */
    int ours = legal_type != NULL && Py_TYPE(legal) == legal_type;
    PyObject *size_of = ours ? Py_XNewRef(SLOT(legal, legal_slot[L_SIZE]))
                             : PyObject_GetAttr(legal, s_size);
    long size = size_of == NULL ? -1 : PyLong_AsLong(size_of);
    Py_XDECREF(size_of);
    if (size == -1 && (size_of == NULL || PyErr_Occurred())) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_AttributeError, "size: not set");
        return NULL;
    }
    if (index < 0 || index >= size) {
        PyErr_SetString(PyExc_IndexError, "legal action index out of range");
        return NULL;
    }
    PyObject *triangles = ours ? Py_XNewRef(SLOT(legal, legal_slot[L_TRIANGLES]))
                               : PyObject_GetAttr(legal, s_triangles);
    PyObject *tiles = triangles == NULL ? NULL
                      : ours            ? Py_XNewRef(SLOT(legal, legal_slot[L_TILES]))
                                        : PyObject_GetAttr(legal, s_tiles);
    if (ours && tiles == NULL && !PyErr_Occurred())
        PyErr_SetString(PyExc_AttributeError, "legal actions: slots not set");
    PyObject *result = NULL;
    if (tiles == NULL) goto done;
    if (!PyTuple_Check(triangles) || !PyTuple_Check(tiles) || PyTuple_GET_SIZE(triangles) == 0) {
        PyErr_SetString(PyExc_TypeError, "legal actions: tuples of tiles and triangles");
        goto done;
    }
    Py_ssize_t per_tile = 3 * PyTuple_GET_SIZE(triangles);
    Py_ssize_t tile = index / per_tile, rest = index % per_tile;
    if (tile >= PyTuple_GET_SIZE(tiles)) {
        PyErr_SetString(PyExc_IndexError, "legal action index out of range");
        goto done;
    }
    long triangle = PyLong_AsLong(PyTuple_GET_ITEM(triangles, rest / 3));
    Py_ssize_t position = PyLong_AsSsize_t(PyTuple_GET_ITEM(tiles, tile));
    if (PyErr_Occurred()) goto done;
    if (triangle < 0) {
        PyErr_SetString(PyExc_ValueError, "triangle: a non-negative id");
        goto done;
    }
    const long *offsets = action_cells[triangle & 1][rest % 3];
    long y = triangle >> 1;
    long turn = long_attribute(state, s_turn);
    long players = turn == -1 && PyErr_Occurred() ? -1 : long_attribute(state, s_players);
    if (PyErr_Occurred()) goto done;
    if (players <= 0 || turn < 0) {
        PyErr_SetString(PyExc_ValueError, "a state's turn and players");
        goto done;
    }
    PyObject *cells = Py_BuildValue("(lll)", y + offsets[0], y + offsets[1], y + offsets[2]);
    if (cells == NULL) goto done;
    int status = take_and_place_in(state, turn % players, position, triangle, cells);
    Py_DECREF(cells);
    if (status == 0) result = Py_NewRef(Py_None);
done:
    Py_XDECREF(triangles);
    Py_XDECREF(tiles);
    return result;
}

/* `rules.apply_action`'s plain case: an exact dict of four exact ints naming an
 * affordable site tile and a triangle in the city's up-to-date legal set. True once it
 * is applied; False, the state untouched, for anything else (the game over, a malformed
 * or illegal action, a city whose legal set is not up to date), which the Python function
 * then checks and explains as it always did. */
static long q_step, r_step, far_out, triangle_from_anchor[6], tile_steps[6][2];
static int action_ready;
static PyObject *s_tile, *s_q, *s_r, *s_rotation;

static PyObject *core_action_setup(PyObject *self, PyObject *args) {
    PyObject *from_anchor, *steps;
    long new_origin;
    action_ready = 0;
    if (!PyArg_ParseTuple(args, "llllO!O!", &new_origin, &q_step, &r_step, &far_out, &PyTuple_Type,
                          &from_anchor, &PyTuple_Type, &steps) ||
        longs_of(from_anchor, triangle_from_anchor, 6, "TRIANGLE_FROM_ANCHOR") < 0 ||
        !sized_tuple(steps, 6, "TILE_STEPS"))
        return NULL;
    for (int rotation = 0; rotation < 6; rotation++) {
        if (longs_of(PyTuple_GET_ITEM(steps, rotation), tile_steps[rotation], 2, "a step") < 0)
            return NULL;
    }
    if (far_out <= 0 || far_out > 4096) {
        PyErr_SetString(PyExc_ValueError, "core tables: FAR out of range");
        return NULL;
    }
    if (new_origin != origin) {
        /* The cells kept are those around the origin: another origin, other cells. */
        for (int i = 0; i < CELL_WINDOW * CELL_WINDOW; i++) Py_CLEAR(cell_ints[i]);
        origin = new_origin;
    }
    action_ready = 1;
    Py_RETURN_NONE;
}

/* An exact int of the action in [low, high], or 0 (no error left set). */
static int plain_field(PyObject *action, PyObject *key, long low, long high, long *out) {
    PyObject *value = PyDict_GetItemWithError(action, key);
    if (value == NULL || !PyLong_CheckExact(value)) {
        PyErr_Clear();
        return 0;
    }
    int overflow;
    *out = PyLong_AsLongAndOverflow(value, &overflow);
    if (overflow || (*out == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return low <= *out && *out <= high;
}

static PyObject *core_apply_action(PyObject *self, PyObject *args) {
    PyObject *state, *action;
    if (!PyArg_ParseTuple(args, "OO", &state, &action)) return NULL;
    if (!action_ready || city_type == NULL || !PyDict_CheckExact(action) ||
        PyDict_GET_SIZE(action) != 4)
        Py_RETURN_FALSE;
    long position, q, r, rotation;
    if (!plain_field(action, s_tile, 0, LONG_MAX, &position) ||
        !plain_field(action, s_q, 1 - far_out, far_out - 1, &q) ||
        !plain_field(action, s_r, 1 - far_out, far_out - 1, &r) ||
        !plain_field(action, s_rotation, 0, 5, &rotation))
        Py_RETURN_FALSE;
    PyObject *site = list_attribute(state, s_site);
    PyObject *stones = site ? list_attribute(state, s_stones) : NULL;
    PyObject *cities = stones ? list_attribute(state, s_cities) : NULL;
    PyObject *stacks = cities ? list_attribute(state, s_stacks) : NULL;
    PyObject *result = NULL;
    if (stacks == NULL) goto done;
    long turn = long_attribute(state, s_turn);
    long players = turn == -1 && PyErr_Occurred() ? -1 : long_attribute(state, s_players);
    if (PyErr_Occurred()) goto done;
    result = Py_NewRef(Py_False);
    if ((PyList_GET_SIZE(site) <= 1 && PyList_GET_SIZE(stacks) == 0) || players <= 0 ||
        turn < 0 || position >= PyList_GET_SIZE(site))
        goto done;
    long player = turn % players;
    if (player >= PyList_GET_SIZE(stones) || player >= PyList_GET_SIZE(cities)) goto done;
    long own = PyLong_AsLong(PyList_GET_ITEM(stones, player));
    if (own == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        goto done;
    }
    if (position > own) goto done;
    long anchor = origin + q * q_step + r * r_step;
    long triangle = 2 * anchor + triangle_from_anchor[rotation];
    /* `City.can_cover`, from the kept legal set only when it is up to date. */
    PyObject *city = PyList_GET_ITEM(cities, player);
    if (Py_TYPE(city) != city_type || triangle < 0) goto done;
    PyObject *kept = SLOT(city, city_slot[C_KEPT]);
    if (kept == NULL || Py_TYPE(kept) != cache_type) goto done;
    PyObject *legal = SLOT(kept, cache_slot[K_LEGAL]), *pending = SLOT(kept, cache_slot[K_PENDING]);
    PyObject *legal_set = SLOT(kept, cache_slot[K_LEGAL_SET]);
    if (legal == NULL || legal == Py_None || pending == NULL || !PyTuple_Check(pending) ||
        PyTuple_GET_SIZE(pending) != 0 || legal_set == NULL ||
        !(PyAnySet_Check(legal_set) || IS_KEPT_LEGAL(legal_set)))
        goto done;
    int found = IS_KEPT_LEGAL(legal_set) ? legal_has((LegalObject *)legal_set, triangle)
                                          : in_set(legal_set, triangle);
    if (found <= 0) {
        PyErr_Clear();
        goto done;
    }
    PyObject *cells = Py_BuildValue("(lll)", anchor, anchor + tile_steps[rotation][0],
                                    anchor + tile_steps[rotation][1]);
    if (cells == NULL || take_and_place_in(state, player, position, triangle, cells) < 0)
        Py_CLEAR(result);
    else
        Py_SETREF(result, Py_NewRef(Py_True));
    Py_XDECREF(cells);
done:
    Py_XDECREF(site);
    Py_XDECREF(stones);
    Py_XDECREF(cities);
    Py_XDECREF(stacks);
    return result;
}

/* `City.points(variants)`: from its running score, kept under these variants (a new
 * reference, or NULL). */
static PyObject *city_points(PyObject *city, PyObject *variants) {
    if (city_type == NULL || Py_TYPE(city) != city_type) {
        /* Another kind of city (the C prototype's) is asked by its method. */
        return PyObject_CallMethodOneArg(city, s_points_method, variants);
    }
    PyObject *kept = slot_get(city, city_slot[C_KEPT], "kept");
    if (kept == NULL || exactly(kept, cache_type, "a CityCache") < 0) return NULL;
    PyObject *score = slot_get(kept, cache_slot[K_SCORE], "score");
    if (score == NULL) return NULL;
    int same = 0;
    if (score != Py_None) {
        PyObject *kept_variants = slot_get(score, score_slot[S_VARIANTS], "variants");
        same = kept_variants == NULL ? -1 : PyObject_RichCompareBool(kept_variants, variants, Py_EQ);
    }
    if (same < 0) return NULL;
    if (!same) {
        /* No running score under these variants yet: the city starts one. */
        return PyObject_CallMethodOneArg(city, s_points_method, variants);
    }
    PyObject *top = slot_get(city, city_slot[C_TOP], "top");
    return top == NULL ? NULL : total_of(score, top);
}

/* `rules.score`: one seat's points and stones. */
static PyObject *core_score(PyObject *self, PyObject *args) {
    PyObject *state, *seat;
    if (!PyArg_ParseTuple(args, "OO", &state, &seat)) return NULL;
    PyObject *cities = PyObject_GetAttr(state, s_cities);
    PyObject *city = cities ? PyObject_GetItem(cities, seat) : NULL;
    PyObject *variants = city ? PyObject_GetAttr(state, s_variants) : NULL;
    PyObject *points = variants ? city_points(city, variants) : NULL;
    PyObject *stones = points ? PyObject_GetAttr(state, s_stones) : NULL;
    PyObject *own = stones ? PyObject_GetItem(stones, seat) : NULL;
    PyObject *result = own ? PyNumber_Add(points, own) : NULL;
    Py_XDECREF(own);
    Py_XDECREF(stones);
    Py_XDECREF(points);
    Py_XDECREF(variants);
    Py_XDECREF(city);
    Py_XDECREF(cities);
    return result;
}

/* `rules.scores`: every seat's points and stones. */
static PyObject *core_scores(PyObject *self, PyObject *state) {
    PyObject *cities = list_attribute(state, s_cities);
    PyObject *stones = cities ? list_attribute(state, s_stones) : NULL;
    PyObject *variants = stones ? PyObject_GetAttr(state, s_variants) : NULL;
    PyObject *result = NULL;
    if (variants == NULL) goto done;
    Py_ssize_t count = PyList_GET_SIZE(cities);
    if (PyList_GET_SIZE(stones) != count) {
        PyErr_SetString(PyExc_ValueError, "zip() arguments differ in length");
        goto done;
    }
    result = PyList_New(count);
    for (Py_ssize_t seat = 0; result != NULL && seat < count; seat++) {
        PyObject *city = Py_NewRef(PyList_GET_ITEM(cities, seat));
        PyObject *points = city_points(city, variants);
        Py_DECREF(city);
        PyObject *total = NULL;
        if (points != NULL && seat < PyList_GET_SIZE(stones)) {
            total = PyNumber_Add(points, PyList_GET_ITEM(stones, seat));
        }
        Py_XDECREF(points);
        if (total == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a seat without stones");
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, seat, total);
    }
done:
    Py_XDECREF(variants);
    Py_XDECREF(stones);
    Py_XDECREF(cities);
    return result;
}

/* `AkropolisState.copy`: the options and stacks shared, the cities too until changed. */
static PyObject *core_copy_state(PyObject *self, PyObject *state) {
    PyObject *cities = list_attribute(state, s_cities);
    if (cities == NULL) return NULL;
    Py_ssize_t count = PyList_GET_SIZE(cities);
    Py_DECREF(cities);
    if (count > 62) {
        PyErr_SetString(PyExc_ValueError, "too many cities");
        return NULL;
    }
    PyObject *everyone = PyLong_FromLong((1L << count) - 1);
    if (everyone == NULL || PyObject_SetAttr(state, s_shared_cities, everyone) < 0) {
        Py_XDECREF(everyone);
        return NULL;
    }
    Py_DECREF(everyone);
    PyObject *fields = PyObject_GenericGetDict(state, NULL);
    if (fields == NULL) return NULL;
    PyObject *own = PyDict_Copy(fields);
    Py_DECREF(fields);
    if (own == NULL) return NULL;
    PyObject *names[] = {s_stacks, s_site, s_stones, s_cities};
    for (int i = 0; i < 4; i++) {
        PyObject *list = PyDict_GetItemWithError(own, names[i]);
        PyObject *copy = list == NULL ? NULL : PySequence_List(list);
        if (copy == NULL || PyDict_SetItem(own, names[i], copy) < 0) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_AttributeError, names[i]);
            Py_XDECREF(copy);
            Py_DECREF(own);
            return NULL;
        }
        Py_DECREF(copy);
    }
    PyTypeObject *type = Py_TYPE(state);
    PyObject *twin = type->tp_alloc(type, 0);
    if (twin == NULL || PyObject_GenericSetDict(twin, own, NULL) < 0) {
        Py_XDECREF(twin);
        Py_DECREF(own);
        return NULL;
    }
    Py_DECREF(own);
    return twin;
}

/* ---- Third stage: a city scored from scratch (`fast.board_score.colour_values`) ----
 * The end of a random playout scores cities that keep no running score. Here the city's
 * bounding box, two cells wider on each side (its two outer rings empty, outside), is a grid
 * of the hexes' levels and codes; the outside is flooded from the rim over the empty
 * cells, and each colour's rule is read cell by cell on the grid. The same rules as
 * `scoring.score_surface` (the oracle) and `board_score` (the reference, which works on
 * bit boards); the tests compare the two on every state of random games. */

#define EMPTY_CODE (-1)

static PyObject *core_board_values(PyObject *self, PyObject *args) {
    PyObject *top, *doubled_tuple;
    if (!PyArg_ParseTuple(args, "O!O!", &PyDict_Type, &top, &PyTuple_Type, &doubled_tuple))
        return NULL;
    if (!score_ready) {
        PyErr_SetString(PyExc_RuntimeError, "the core's score tables are not set up");
        return NULL;
    }
    int doubled[5];
    if (PyTuple_GET_SIZE(doubled_tuple) != 5) {
        PyErr_SetString(PyExc_ValueError, "board_values: five variants' flags");
        return NULL;
    }
    for (int i = 0; i < 5; i++) {
        doubled[i] = PyObject_IsTrue(PyTuple_GET_ITEM(doubled_tuple, i));
        if (doubled[i] < 0) return NULL;
    }
    long values[COLOUR_COUNT] = {0}, stars[COLOUR_COUNT] = {0};
    Py_ssize_t count = PyDict_GET_SIZE(top);
    if (count > 0) {
        long q_low = LONG_MAX, q_high = LONG_MIN, r_low = LONG_MAX, r_high = LONG_MIN;
        Py_ssize_t pos = 0;
        PyObject *key, *hex;
        while (PyDict_Next(top, &pos, &key, &hex)) {
            long cell = PyLong_AsLong(key);
            if (cell == -1 && PyErr_Occurred()) return NULL;
            if (cell < 0 || cell >= (1L << 24)) {
                PyErr_SetString(PyExc_ValueError, "a city's cell out of range");
                return NULL;
            }
            long q = cell >> 12, r = cell & 4095;
            if (q < q_low) q_low = q;
            if (q > q_high) q_high = q;
            if (r < r_low) r_low = r;
            if (r > r_high) r_high = r;
        }
        long width = r_high - r_low + 5, rows = q_high - q_low + 5;
        Py_ssize_t size = width * rows;
        /* Per grid cell: level, code (EMPTY_CODE if none), 1 if outside; a flood stack. */
        long *level = malloc(sizeof(long) * size);
        int *code = malloc(sizeof(int) * size), *outside = malloc(sizeof(int) * size);
        Py_ssize_t *stack = malloc(sizeof(Py_ssize_t) * size);
        if (level == NULL || code == NULL || outside == NULL || stack == NULL) {
            free(level), free(code), free(outside), free(stack);
            return PyErr_NoMemory();
        }
        Py_ssize_t near[6];
        for (int d = 0; d < 6; d++) {
            long dq = (step[d] + 2048) >> 12, dr = step[d] - dq * 4096;
            near[d] = dq * width + dr;
        }
        for (Py_ssize_t i = 0; i < size; i++) code[i] = EMPTY_CODE, level[i] = 0, outside[i] = 0;
        int has[MAX_CODES] = {0};
        pos = 0;
        while (PyDict_Next(top, &pos, &key, &hex)) {
            long cell = PyLong_AsLong(key);
            long q = cell >> 12, r = cell & 4095;
            if (!PyTuple_Check(hex) || PyTuple_GET_SIZE(hex) != 3) {
                PyErr_SetString(PyExc_TypeError, "a city's hex: a (level, code, stars) tuple");
                goto fail;
            }
            long hex_level = PyLong_AsLong(PyTuple_GET_ITEM(hex, 0));
            long hex_code = PyLong_AsLong(PyTuple_GET_ITEM(hex, 1));
            long hex_stars = PyLong_AsLong(PyTuple_GET_ITEM(hex, 2));
            if (PyErr_Occurred()) goto fail;
            if (hex_code < 0 || hex_code >= n_codes) {
                PyErr_SetString(PyExc_ValueError, "a city's hex: a code out of range");
                goto fail;
            }
            Py_ssize_t i = (q - q_low + 2) * width + r - r_low + 2;
            code[i] = (int)hex_code, level[i] = hex_level;
            has[hex_code] = 1;
            if (is_plaza[hex_code]) stars[colour_of[hex_code]] += hex_stars;
        }
        int need_outside = has[barracks] || (has[garden] && doubled[4]);
        if (need_outside) {
            /* The rim is outside, and so is the empty ring inside it, where the flood starts:
             * it grows over the empty cells, never past the rim. */
            Py_ssize_t top_of_stack = 0;
            for (Py_ssize_t i = 0; i < size; i++) {
                long q = i / width, r = i % width;
                if (q == 0 || q == rows - 1 || r == 0 || r == width - 1) {
                    outside[i] = 1;
                } else if (q == 1 || q == rows - 2 || r == 1 || r == width - 2) {
                    outside[i] = 1;
                    stack[top_of_stack++] = i;
                }
            }
            while (top_of_stack) {
                Py_ssize_t i = stack[--top_of_stack];
                for (int d = 0; d < 6; d++) {
                    Py_ssize_t j = i + near[d];
                    if (code[j] == EMPTY_CODE && !outside[j]) {
                        outside[j] = 1;
                        stack[top_of_stack++] = j;
                    }
                }
            }
        }
        long best_size = 0, best_value = 0;
        for (long q = 2; q < rows - 2; q++) {
            for (long r = 2; r < width - 2; r++) {
                Py_ssize_t i = q * width + r;
                int c = code[i];
                if (c < 0 || is_plaza[c]) continue; /* empty, a house met, or a plaza */
                long lv = level[i];
                if (c == house) {
                    /* A house group not met yet: flooded, its cells marked -2. */
                    long group_size = 0, group_value = 0;
                    Py_ssize_t top_of_stack = 0;
                    stack[top_of_stack++] = i;
                    code[i] = -2;
                    while (top_of_stack) {
                        Py_ssize_t k = stack[--top_of_stack];
                        group_size++, group_value += level[k];
                        for (int d = 0; d < 6; d++) {
                            Py_ssize_t j = k + near[d];
                            if (code[j] == house) code[j] = -2, stack[top_of_stack++] = j;
                        }
                    }
                    if (group_size > best_size || (group_size == best_size && group_value > best_value))
                        best_size = group_size, best_value = group_value;
                    continue;
                }
                int markets_near = 0, plazas_near = 0, filled_near = 0, outside_near = 0,
                    lakes_near = 0;
                for (int d = 0; d < 6; d++) {
                    Py_ssize_t j = i + near[d];
                    int n = code[j];
                    if (n == EMPTY_CODE) {
                        if (outside[j]) outside_near++;
                        else lakes_near++;
                    } else {
                        filled_near++;
                        if (n == market) markets_near++;
                        else if (n == market_plaza) plazas_near++;
                    }
                }
                if (c == market) {
                    if (!markets_near) values[colour_of[market]] += plazas_near && doubled[1] ? 2 * lv : lv;
                } else if (c == temple) {
                    if (filled_near == 6)
                        values[colour_of[temple]] +=
                            doubled[3] && lv >= temples_doubled_from_level ? 2 * lv : lv;
                } else if (c == barracks) {
                    if (outside_near)
                        values[colour_of[barracks]] +=
                            doubled[2] && (barracks_doubled_mask >> outside_near & 1) ? 2 * lv : lv;
                } else if (c == garden) {
                    values[colour_of[garden]] += lakes_near && doubled[4] && need_outside ? 2 * lv : lv;
                }
            }
        }
        values[colour_of[house]] =
            doubled[0] && best_value >= houses_doubled_from ? 2 * best_value : best_value;
        free(level), free(code), free(outside), free(stack);
        goto done;
    fail:
        free(level), free(code), free(outside), free(stack);
        return NULL;
    }
done:;
    PyObject *value_list = PyList_New(COLOUR_COUNT), *star_list = PyList_New(COLOUR_COUNT);
    if (value_list == NULL || star_list == NULL) goto lost;
    for (int k = 0; k < COLOUR_COUNT; k++) {
        PyObject *v = PyLong_FromLong(values[k]), *s = PyLong_FromLong(stars[k]);
        if (v == NULL || s == NULL) {
            Py_XDECREF(v), Py_XDECREF(s);
            goto lost;
        }
        PyList_SET_ITEM(value_list, k, v);
        PyList_SET_ITEM(star_list, k, s);
    }
    PyObject *pair = PyTuple_Pack(2, value_list, star_list);
    Py_DECREF(value_list);
    Py_DECREF(star_list);
    return pair;
lost:
    Py_XDECREF(value_list);
    Py_XDECREF(star_list);
    return NULL;
}

/* ---- Third stage: a turn's legal actions (`rules.legal_actions`) ----
 * The lazy product `actions.LegalActions` (affordable site positions x the city's legal
 * triangles), made here as Python makes it, every slot set: a random playout asks for it
 * every turn. Its class is handed over by `engine.akropolis.actions` (`legal_setup`). */

#define MAX_RANGES 16
static PyObject *ranges[MAX_RANGES]; /* tuple(range(n)), kept */
static PyObject *s_legal_triangles, *minus_one;

static PyObject *core_legal_setup(PyObject *self, PyObject *type) {
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "legal_setup: the LegalActions class");
        return NULL;
    }
    Py_CLEAR(legal_type);
    if (slot_offsets((PyTypeObject *)type, legal_names, L_COUNT, legal_slot) < 0) return NULL;
    if (s_legal_triangles == NULL &&
        (s_legal_triangles = PyUnicode_InternFromString("legal_triangles")) == NULL)
        return NULL;
    if (minus_one == NULL && (minus_one = PyLong_FromLong(-1)) == NULL) return NULL;
    legal_type = (PyTypeObject *)Py_NewRef(type);
    Py_RETURN_NONE;
}

/* tuple(range(n)), n >= 0 (a new reference). */
static PyObject *range_tuple(Py_ssize_t n) {
    if (n < MAX_RANGES && ranges[n] != NULL) return Py_NewRef(ranges[n]);
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyLong_FromSsize_t(i);
        if (item == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, i, item);
    }
    if (n < MAX_RANGES) ranges[n] = Py_NewRef(tuple);
    return tuple;
}

/* `City.legal_triangles()` (a new reference) and the city's tile count: read from the
 * cache's slots where its legal list is its own and up to date, else asked. */
static PyObject *legal_triangles_of(PyObject *city, PyObject **tiles) {
    if (city_type != NULL && Py_TYPE(city) == city_type) {
        PyObject *kept = slot_get(city, city_slot[C_KEPT], "kept");
        if (kept == NULL || exactly(kept, cache_type, "a CityCache") < 0) return NULL;
        PyObject *legal = slot_get(kept, cache_slot[K_LEGAL], "legal");
        PyObject *shared = legal ? slot_get(kept, cache_slot[K_LEGAL_SHARED], "legal_shared") : NULL;
        *tiles = shared ? slot_get(city, city_slot[C_TILES], "tiles") : NULL;
        if (*tiles == NULL) return NULL;
        Py_INCREF(*tiles);
        int is_shared = PyObject_IsTrue(shared);
        if (is_shared < 0) goto fail;
        if (legal != Py_None && !is_shared) return Py_NewRef(legal);
        PyObject *asked = PyObject_CallMethodNoArgs(city, s_legal_triangles);
        if (asked != NULL) return asked;
    fail:
        Py_CLEAR(*tiles);
        return NULL;
    }
    /* Another kind of city (the C prototype's) is asked by its methods. */
    *tiles = PyObject_GetAttr(city, s_tiles);
    if (*tiles == NULL) return NULL;
    PyObject *asked = PyObject_CallMethodNoArgs(city, s_legal_triangles);
    if (asked == NULL) Py_CLEAR(*tiles);
    return asked;
}

static PyObject *core_legal_actions(PyObject *self, PyObject *state) {
    if (legal_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the core's LegalActions class is not set up");
        return NULL;
    }
    PyObject *site = list_attribute(state, s_site), *stacks = NULL, *stones = NULL,
             *cities = NULL, *city = NULL, *city_tiles = NULL, *listed = NULL, *tiles = NULL,
             *triangles = NULL, *size = NULL, *legal = NULL;
    if (site == NULL || (stacks = PyObject_GetAttr(state, s_stacks)) == NULL) goto done;
    int stacks_left = PyObject_IsTrue(stacks);
    if (stacks_left < 0) goto done;
    if (PyList_GET_SIZE(site) <= 1 && !stacks_left) {
        /* The game is over: no actions (`LegalActions((), ())`). */
        tiles = range_tuple(0);
        triangles = tiles ? range_tuple(0) : NULL;
        city = Py_NewRef(Py_None);
        city_tiles = Py_NewRef(minus_one);
    } else {
        long turn = long_attribute(state, s_turn);
        long players = turn == -1 && PyErr_Occurred() ? -1 : long_attribute(state, s_players);
        if (PyErr_Occurred()) goto done;
        if (players <= 0 || turn < 0) {
            PyErr_SetString(PyExc_ValueError, "a state's turn and players");
            goto done;
        }
        long player = turn % players;
        if ((stones = list_attribute(state, s_stones)) == NULL ||
            (cities = list_attribute(state, s_cities)) == NULL)
            goto done;
        if (player >= PyList_GET_SIZE(stones) || player >= PyList_GET_SIZE(cities)) {
            PyErr_SetString(PyExc_IndexError, "list index out of range");
            goto done;
        }
        long own = PyLong_AsLong(PyList_GET_ITEM(stones, player));
        if (own == -1 && PyErr_Occurred()) goto done;
        Py_ssize_t affordable = PyList_GET_SIZE(site);
        if (own + 1 < affordable) affordable = own + 1 < 0 ? 0 : own + 1;
        city = Py_NewRef(PyList_GET_ITEM(cities, player));
        if ((listed = legal_triangles_of(city, &city_tiles)) == NULL) goto done;
        tiles = range_tuple(affordable);
        triangles = tiles == NULL       ? NULL
                    : IS_KEPT_LEGAL(listed) ? legal_as_tuple((LegalObject *)listed)
                                            : PySequence_Tuple(listed);
    }
    if (triangles == NULL) goto done;
    size = PyLong_FromSsize_t(PyTuple_GET_SIZE(tiles) * PyTuple_GET_SIZE(triangles) * 3);
    if (size == NULL || (legal = legal_type->tp_alloc(legal_type, 0)) == NULL) goto done;
    slot_set(legal, legal_slot[L_TILES], tiles);
    slot_set(legal, legal_slot[L_TRIANGLES], triangles);
    slot_set(legal, legal_slot[L_SIZE], size);
    slot_set(legal, legal_slot[L_CITY], city);
    slot_set(legal, legal_slot[L_CITY_TILES], city_tiles);
done:
    Py_XDECREF(site);
    Py_XDECREF(stacks);
    Py_XDECREF(stones);
    Py_XDECREF(cities);
    Py_XDECREF(city);
    Py_XDECREF(city_tiles);
    Py_XDECREF(listed);
    Py_XDECREF(tiles);
    Py_XDECREF(triangles);
    Py_XDECREF(size);
    return legal;
}

/* ---- The deal's shuffle (`engine.rng.SplitMix64(seed).shuffle(items)`) ------------------
 * Fisher-Yates in place, each `j` drawn as `SplitMix64.below(i + 1)` draws it (a draw at or
 * above the largest multiple of the bound below 2**64 drawn again): the same items in the
 * same order as the Python method, which stays the reference (`tests/engine/test_rng.py`
 * and the core's tests compare the two). */

static PyObject *core_shuffle(PyObject *self, PyObject *args) {
    PyObject *items;
    unsigned long long state;
    if (!PyArg_ParseTuple(args, "O!K", &PyList_Type, &items, &state)) return NULL;
    PyObject **item = ((PyListObject *)items)->ob_item;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        uint64_t bound = (uint64_t)i + 1, value;
        /* 2**64 - 2**64 % bound, less one: the largest value drawn and kept. */
        uint64_t last = UINT64_MAX - (UINT64_MAX % bound + 1) % bound;
        do {
            state += 0x9E3779B97F4A7C15ULL;
            uint64_t z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            value = z ^ (z >> 31);
        } while (value > last);
        Py_ssize_t j = (Py_ssize_t)(value % bound);
        PyObject *swap = item[i];
        item[i] = item[j], item[j] = swap;
    }
    return PyLong_FromUnsignedLongLong(state);
}

static PyMethodDef core_methods[] = {
    {"setup", core_setup, METH_VARARGS,
     "setup(ring_bits, split_by_level, maybe_legal_before, outer_needed, outer_whole, "
     "ring_sectors): the tables of `fast.legal_tables`, copied once."},
    {"update_legal", core_update_legal, METH_VARARGS,
     "update_legal(top, legal, legal_set, texts, placement_texts, triangle, level, direct): "
     "`CityCache.update_legal` on the same objects."},
    {"score_setup", core_score_setup, METH_VARARGS,
     "score_setup(step, ring_cycle, ring, is_plaza, colour_index, stars_of_code, "
     "district_codes, barracks_doubled_edges, houses_doubled_from, "
     "temples_doubled_from_level): the rules' numbers the score reads, copied once."},
    {"placed", core_placed, METH_VARARGS,
     "placed(score, top, triangle, cells, codes, covered, level): `RunningScore.placed` "
     "on the same object."},
    {"total", core_total, METH_VARARGS,
     "total(score, top): `RunningScore.total` on the same object."},
    {"objects_setup", core_objects_setup, METH_VARARGS,
     "objects_setup(City, CityCache, RunningScore, tile_hexes, placement_texts, "
     "action_cells, quarry): the classes whose slots the core uses, and a turn's tables."},
    {"copy_city", core_copy_city, METH_O, "copy_city(city): `City.copy`."},
    {"place", core_place, METH_VARARGS,
     "place(city, triangle, cells, codes, uid): `City.place`, the quarries covered."},
    {"take_and_place", core_take_and_place, METH_VARARGS,
     "take_and_place(state, player, position, triangle, cells): `rules.take_and_place`."},
    {"apply_legal", core_apply_legal, METH_VARARGS,
     "apply_legal(state, legal, index): `rules.apply_legal`."},
    {"score", core_score, METH_VARARGS, "score(state, seat): `rules.score`."},
    {"scores", core_scores, METH_O, "scores(state): `rules.scores`."},
    {"legal_setup", core_legal_setup, METH_O,
     "legal_setup(LegalActions): the class `legal_actions` makes, its slots found once."},
    {"legal_actions", core_legal_actions, METH_O, "legal_actions(state): `rules.legal_actions`."},
    {"board_values", core_board_values, METH_VARARGS,
     "board_values(top, doubled): `fast.board_score.colour_values` (doubled: the five "
     "variants' flags, `board_score.doubled`)."},
    {"copy_state", core_copy_state, METH_O, "copy_state(state): `AkropolisState.copy`."},
    {"shuffle", core_shuffle, METH_VARARGS,
     "shuffle(items, state): `SplitMix64` of this state's `shuffle(items)`, in place; the "
     "generator's state after."},
    {"action_setup", core_action_setup, METH_VARARGS,
     "action_setup(origin, q_step, r_step, far, triangle_from_anchor, tile_steps): how an "
     "action's coordinates are coded, copied once."},
    {"apply_action", core_apply_action, METH_VARARGS,
     "apply_action(state, action): `rules.apply_action` for a plain legal action (True), "
     "or False and the state untouched."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "Akropolis' compiled core (see engine/akropolis/native/__init__.py).", -1, core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL) return NULL;
    const char *names[] = {"difference", "site", "stacks", "stones", "cities", "shared_cities",
                           "turn", "players", "variants", "size", "tiles", "triangles",
                           "points", "tile", "q", "r", "rotation"};
    PyObject **interned[] = {&s_difference, &s_site, &s_stacks, &s_stones, &s_cities,
                             &s_shared_cities, &s_turn, &s_players, &s_variants, &s_size,
                             &s_tiles, &s_triangles, &s_points_method, &s_tile, &s_q, &s_r,
                             &s_rotation};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (*interned[i] == NULL && (*interned[i] = PyUnicode_InternFromString(names[i])) == NULL) {
            Py_DECREF(module);
            return NULL;
        }
    }
    if (PyType_Ready(&legal_triangles_type) < 0 ||
        PyModule_AddObjectRef(module, "LegalTriangles", (PyObject *)&legal_triangles_type) < 0 ||
        PyModule_AddIntConstant(module, "VERSION", CORE_VERSION) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
