/* Attika's compiled core: where a player can build each of their buildings.
 *
 * `legal_builds(state, player, buildings)` is `engine.attika.fast.builds.legal_builds`
 * in C, on the same Python objects (the player's hand and buildings, the map's kept
 * index: its free cells, their discounts, the cells touching the player's buildings and
 * next to their roads): the buildings of a turn's legal actions, a third of a random
 * playout in pure Python. The pure-Python function (`legal_builds_in_python`) stays the
 * reference and the fallback, and the tests compare the two on every decision of random
 * games and on adversarial hands.
 *
 * Where Python prices groups of cells of one discount, this prices each free cell: in C
 * that is cheaper than grouping. The answers are the same, kinds of sequences included
 * (all the free cells as a tuple where Python gives its kept tuple, else a sorted list).
 *
 * The numbers it reads are the Python engine's own (`components.COST`, `IS_MAIN`,
 * `IS_ROAD`, `UPSTREAM`, `ROAD_COST`, `fast.builds.WORST`, `hexgrid.NEIGHBOUR_STEPS`),
 * handed over once by `setup` (engine/attika/native/__init__.py) and copied here: no
 * rule is derived a second time. Every input is checked: a wrong type or value raises,
 * never crashes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#define CORE_VERSION 1 /* bump with every change of behaviour (checked by the loader) */
#define STEPS 6
#define MAX_BUILDINGS 256
#define LANDSCAPES 4
#define MAX_CARDS 1000000L /* far past any hand: sums never overflow */

typedef struct {
    long cost[LANDSCAPES];
    long worst; /* the most it can cost before the surcharge (`builds.WORST`) */
    int is_main, is_road;
    long upstream; /* the building its arrow comes from, or -1 */
} Building;

static Building buildings_table[MAX_BUILDINGS];
static Py_ssize_t n_buildings;
static long steps[STEPS];
static long road_cost;
static int set_up;

static PyObject *s_seats, *s_caches, *s_index, *s_hand, *s_placed, *s_colonies, *s_discount,
    *s_free_sorted, *s_touching, *s_road_near;

/* An exact int (a bool is refused) into a long within [low, high], or -1 with an
 * exception. */
static int long_in(PyObject *item, long low, long high, long *out, const char *what) {
    if (!PyLong_CheckExact(item)) {
        PyErr_Format(PyExc_TypeError, "%s: an int was expected, not %.80s", what,
                     Py_TYPE(item)->tp_name);
        return -1;
    }
    int overflow;
    long value = PyLong_AsLongAndOverflow(item, &overflow);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (overflow || value < low || value > high) {
        PyErr_Format(PyExc_ValueError, "%s: out of range", what);
        return -1;
    }
    *out = value;
    return 0;
}

static int flag_of(PyObject *item, int *out) {
    if (!PyBool_Check(item)) {
        PyErr_SetString(PyExc_TypeError, "core tables: a flag is a bool");
        return -1;
    }
    *out = item == Py_True;
    return 0;
}

/* setup(cost, worst, is_main, is_road, upstream, road_cost, neighbour_steps): all
 * checked before any is kept, so a refused call leaves the core as it was. */
static PyObject *core_setup(PyObject *self, PyObject *args) {
    PyObject *cost, *worst, *is_main, *is_road, *upstream, *step_tuple;
    long new_road_cost, new_steps[STEPS];
    static Building table[MAX_BUILDINGS];
    if (!PyArg_ParseTuple(args, "O!O!O!O!O!lO!", &PyTuple_Type, &cost, &PyTuple_Type, &worst,
                          &PyTuple_Type, &is_main, &PyTuple_Type, &is_road, &PyTuple_Type,
                          &upstream, &new_road_cost, &PyTuple_Type, &step_tuple))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(cost);
    if (count == 0 || count > MAX_BUILDINGS || PyTuple_GET_SIZE(worst) != count ||
        PyTuple_GET_SIZE(is_main) != count || PyTuple_GET_SIZE(is_road) != count ||
        PyTuple_GET_SIZE(upstream) != count || PyTuple_GET_SIZE(step_tuple) != STEPS ||
        new_road_cost < 0 || new_road_cost > MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "core tables: wrong sizes");
        return NULL;
    }
    for (int i = 0; i < STEPS; i++) {
        if (long_in(PyTuple_GET_ITEM(step_tuple, i), -MAX_CARDS, MAX_CARDS, &new_steps[i],
                    "a step") < 0)
            return NULL;
    }
    for (Py_ssize_t b = 0; b < count; b++) {
        Building *building = &table[b];
        PyObject *printed = PyTuple_GET_ITEM(cost, b);
        if (!PyTuple_Check(printed) || PyTuple_GET_SIZE(printed) != LANDSCAPES) {
            PyErr_SetString(PyExc_ValueError, "core tables: a cost is one count per landscape");
            return NULL;
        }
        for (int l = 0; l < LANDSCAPES; l++) {
            if (long_in(PyTuple_GET_ITEM(printed, l), 0, MAX_CARDS, &building->cost[l],
                        "a cost") < 0)
                return NULL;
        }
        if (long_in(PyTuple_GET_ITEM(worst, b), 0, MAX_CARDS, &building->worst, "a worst cost") <
                0 ||
            flag_of(PyTuple_GET_ITEM(is_main, b), &building->is_main) < 0 ||
            flag_of(PyTuple_GET_ITEM(is_road, b), &building->is_road) < 0 ||
            long_in(PyTuple_GET_ITEM(upstream, b), -1, count - 1, &building->upstream,
                    "an upstream building") < 0)
            return NULL;
    }
    memcpy(buildings_table, table, (size_t)count * sizeof(Building));
    memcpy(steps, new_steps, sizeof steps);
    n_buildings = count;
    road_cost = new_road_cost;
    set_up = 1;
    Py_RETURN_NONE;
}

/* --- one call ------------------------------------------------------------------------ */

typedef struct {
    PyObject *code;                /* borrowed from the free cells' list */
    long value;                    /* its code */
    long discount[LANDSCAPES + 1]; /* the symbols per landscape, then in all */
    int touching;                  /* next to one of the player's buildings */
    int near_road;                 /* next to one of the player's roads */
} FreeCell;

/* An attribute of `object` that must be of `type` (exactly); a new reference or NULL. */
static PyObject *attribute(PyObject *object, PyObject *name, PyTypeObject *type) {
    PyObject *value = PyObject_GetAttr(object, name);
    if (value != NULL && type != NULL && !Py_IS_TYPE(value, type)) {
        PyErr_Format(PyExc_TypeError, "%U: a %s was expected, not %.80s", name, type->tp_name,
                     Py_TYPE(value)->tp_name);
        Py_CLEAR(value);
    }
    return value;
}

/* Item `player` of a list attribute of `index`; a new reference or NULL. */
static PyObject *per_player(PyObject *index, PyObject *name, Py_ssize_t player) {
    PyObject *list = attribute(index, name, &PyList_Type);
    if (list == NULL) return NULL;
    if (player >= PyList_GET_SIZE(list)) {
        Py_DECREF(list);
        PyErr_Format(PyExc_ValueError, "%U: no entry for player %zd", name, player);
        return NULL;
    }
    PyObject *item = PyList_GET_ITEM(list, player);
    Py_INCREF(item);
    Py_DECREF(list);
    return item;
}

/* The cards left once `building`'s cost on a cell of this discount is paid without
 * surcharge, matching cards first; negative when the hand cannot pay
 * (`builds._slack` of `builds.cards_due`). */
static long slack(const Building *building, const long *discount, const long *hand, long total) {
    if (building->is_road) {
        long due = road_cost - discount[LANDSCAPES];
        return total - (due > 0 ? due : 0);
    }
    long due_total = 0, matched = 0;
    for (int l = 0; l < LANDSCAPES; l++) {
        long due = building->cost[l] - discount[l];
        if (due <= 0) continue;
        due_total += due;
        matched += hand[l] >= due ? due : hand[l];
    }
    if (due_total == 0) return total;
    return total + matched - 2 * due_total;
}

typedef struct {
    PyObject *free_sorted, *discount, *touching, *road_near, *placed, *all_cells;
    FreeCell *cells;
    Py_ssize_t n;
    int cells_read;
} Call;

/* The free cells with their discounts and where they touch the player: read once a call
 * needs them (a building everywhere affordable needs none). */
static int read_cells(Call *call) {
    Py_ssize_t n = PyList_GET_SIZE(call->free_sorted);
    call->cells = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(FreeCell));
    if (call->cells == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    call->n = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        FreeCell *cell = &call->cells[i];
        cell->code = PyList_GET_ITEM(call->free_sorted, i);
        if (long_in(cell->code, -LONG_MAX / 2, LONG_MAX / 2, &cell->value, "a free cell") < 0)
            return -1;
        if (i > 0 && cell->value <= call->cells[i - 1].value) {
            PyErr_SetString(PyExc_ValueError, "the free cells: not sorted");
            return -1;
        }
        PyObject *discount = PyDict_GetItemWithError(call->discount, cell->code);
        if (discount == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "a free cell without a discount");
            return -1;
        }
        if (!PyTuple_CheckExact(discount) || PyTuple_GET_SIZE(discount) != LANDSCAPES + 1) {
            PyErr_SetString(PyExc_TypeError, "a discount: a tuple of five ints");
            return -1;
        }
        for (int l = 0; l <= LANDSCAPES; l++) {
            if (long_in(PyTuple_GET_ITEM(discount, l), -MAX_CARDS, MAX_CARDS,
                        &cell->discount[l], "a discount") < 0)
                return -1;
        }
        int touching = PySet_Contains(call->touching, cell->code);
        int near_road = PySet_Contains(call->road_near, cell->code);
        if (touching < 0 || near_road < 0) return -1;
        cell->touching = touching;
        cell->near_road = near_road;
    }
    call->cells_read = 1;
    return 0;
}

/* Every free cell, as the tuple Python keeps (`builds.all_free_cells`). */
static PyObject *all_cells(Call *call) {
    if (call->all_cells == NULL) call->all_cells = PyList_AsTuple(call->free_sorted);
    Py_XINCREF(call->all_cells);
    return call->all_cells;
}

static PyObject *option(long building, PyObject *cells) {
    if (cells == NULL) return NULL;
    PyObject *pair = Py_BuildValue("(lN)", building, cells);
    return pair;
}

/* The option of one building (a new reference), Py_None where it has no cell (not a new
 * reference), NULL on error. */
static PyObject *building_option(Call *call, long b, const long *hand, long total,
                                 long colonies) {
    const Building *building = &buildings_table[b];
    if (total >= building->worst + colonies) return option(b, all_cells(call));
    if (!call->cells_read && read_cells(call) < 0) return NULL;
    long upstream_cell = 0;
    int has_upstream = 0;
    if (!building->is_main && !building->is_road && building->upstream >= 0) {
        PyObject *key = PyLong_FromLong(building->upstream);
        if (key == NULL) return NULL;
        PyObject *cell = PyDict_GetItemWithError(call->placed, key);
        Py_DECREF(key);
        if (cell == NULL && PyErr_Occurred()) return NULL;
        if (cell != NULL) {
            if (long_in(cell, -LONG_MAX / 2, LONG_MAX / 2, &upstream_cell, "a placed cell") < 0)
                return NULL;
            has_upstream = 1;
        }
    }
    int new_colony = total >= colonies, everywhere = new_colony;
    Py_ssize_t chosen = 0;
    char *picked = PyMem_Malloc((size_t)(call->n ? call->n : 1));
    if (picked == NULL) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < call->n; i++) {
        const FreeCell *cell = &call->cells[i];
        long left = slack(building, cell->discount, hand, total);
        int free_build = 0;
        if (building->is_road) {
            free_build = cell->near_road;
        } else if (has_upstream) {
            for (int s = 0; s < STEPS; s++) free_build |= cell->value == upstream_cell + steps[s];
        }
        if (left < colonies) everywhere = 0;
        picked[i] = free_build || (new_colony && left >= colonies) || (cell->touching && left >= 0);
        chosen += picked[i];
    }
    PyObject *result = Py_None;
    if (everywhere) {
        result = option(b, all_cells(call));
    } else if (chosen) {
        PyObject *cells = PyList_New(chosen);
        if (cells != NULL) {
            Py_ssize_t at = 0;
            for (Py_ssize_t i = 0; i < call->n; i++) {
                if (!picked[i]) continue;
                Py_INCREF(call->cells[i].code);
                PyList_SET_ITEM(cells, at++, call->cells[i].code);
            }
        }
        result = option(b, cells);
    }
    PyMem_Free(picked);
    return result;
}

/* legal_builds(state, player, buildings): `fast.builds.legal_builds`. */
static PyObject *core_legal_builds(PyObject *self, PyObject *args) {
    PyObject *state, *buildings;
    Py_ssize_t player;
    if (!PyArg_ParseTuple(args, "OnO", &state, &player, &buildings)) return NULL;
    if (!set_up) {
        PyErr_SetString(PyExc_RuntimeError, "core tables not set up");
        return NULL;
    }
    if (player < 0) {
        PyErr_SetString(PyExc_ValueError, "player: out of range");
        return NULL;
    }
    Call call = {0};
    PyObject *seat = NULL, *hand = NULL, *caches = NULL, *index = NULL, *colonies_object = NULL,
             *options = NULL, *iterator = NULL, *item;
    long hand_counts[LANDSCAPES], total = 0, colonies;
    seat = per_player(state, s_seats, player);
    if (seat == NULL || (hand = attribute(seat, s_hand, &PyList_Type)) == NULL ||
        (call.placed = attribute(seat, s_placed, &PyDict_Type)) == NULL ||
        (caches = attribute(state, s_caches, NULL)) == NULL ||
        (index = attribute(caches, s_index, NULL)) == NULL ||
        (colonies_object = per_player(index, s_colonies, player)) == NULL ||
        (call.free_sorted = attribute(index, s_free_sorted, &PyList_Type)) == NULL ||
        (call.discount = attribute(index, s_discount, &PyDict_Type)) == NULL ||
        (call.touching = per_player(index, s_touching, player)) == NULL ||
        (call.road_near = per_player(index, s_road_near, player)) == NULL)
        goto done;
    if (!PyAnySet_Check(call.touching) || !PyAnySet_Check(call.road_near)) {
        PyErr_SetString(PyExc_TypeError, "the cells touching or next to roads: sets expected");
        goto done;
    }
    if (PyList_GET_SIZE(hand) < LANDSCAPES) {
        PyErr_SetString(PyExc_ValueError, "a hand: one count per landscape");
        goto done;
    }
    for (int l = 0; l < LANDSCAPES; l++) {
        if (long_in(PyList_GET_ITEM(hand, l), 0, MAX_CARDS, &hand_counts[l], "a hand") < 0)
            goto done;
        total += hand_counts[l];
    }
    if (long_in(colonies_object, -MAX_CARDS, MAX_CARDS, &colonies, "colonies") < 0) goto done;
    options = PyList_New(0);
    iterator = PyObject_GetIter(buildings);
    if (options == NULL || iterator == NULL) goto failed;
    while ((item = PyIter_Next(iterator)) != NULL) {
        long b;
        int ok = long_in(item, 0, n_buildings - 1, &b, "a building") == 0;
        Py_DECREF(item);
        if (!ok) goto failed;
        PyObject *found = building_option(&call, b, hand_counts, total, colonies);
        if (found == NULL) goto failed;
        if (found != Py_None) {
            int appended = PyList_Append(options, found);
            Py_DECREF(found);
            if (appended < 0) goto failed;
        }
    }
    if (!PyErr_Occurred()) goto done;
failed:
    Py_CLEAR(options);
done:
    Py_XDECREF(iterator);
    Py_XDECREF(seat);
    Py_XDECREF(hand);
    Py_XDECREF(call.placed);
    Py_XDECREF(caches);
    Py_XDECREF(index);
    Py_XDECREF(colonies_object);
    Py_XDECREF(call.free_sorted);
    Py_XDECREF(call.discount);
    Py_XDECREF(call.touching);
    Py_XDECREF(call.road_near);
    Py_XDECREF(call.all_cells);
    PyMem_Free(call.cells);
    return options;
}

static PyMethodDef core_methods[] = {
    {"setup", core_setup, METH_VARARGS,
     "setup(cost, worst, is_main, is_road, upstream, road_cost, neighbour_steps): the "
     "buildings' numbers, copied once."},
    {"legal_builds", core_legal_builds, METH_VARARGS,
     "legal_builds(state, player, buildings): `fast.builds.legal_builds`."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core",
    "Attika's compiled core (see engine/attika/native/__init__.py).", -1, core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    PyObject *module = PyModule_Create(&core_module);
    if (module == NULL) return NULL;
    const char *names[] = {"seats",    "caches",      "index",    "hand",     "placed",
                           "colonies", "free_sorted", "discount", "touching", "road_near"};
    PyObject **interned[] = {&s_seats,    &s_caches,      &s_index,    &s_hand,     &s_placed,
                             &s_colonies, &s_free_sorted, &s_discount, &s_touching, &s_road_near};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (*interned[i] == NULL && (*interned[i] = PyUnicode_InternFromString(names[i])) == NULL) {
            Py_DECREF(module);
            return NULL;
        }
    }
    if (PyModule_AddIntConstant(module, "VERSION", CORE_VERSION) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
