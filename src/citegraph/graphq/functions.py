"""FalkorDB's own functions (as `CALL dbms.functions()` lists them for the shipped version,
less the operators it lists as functions), and the few procedures a graph question may call.

A name outside these is refused: user-defined functions (`GRAPH.UDF`) and other namespaces
(`apoc.*`) are not FalkorDB's built-ins, and `algo.*` walks without a depth bound.
"""

from __future__ import annotations

_NAMES = """
abs acos all any asin atan atan2 avg ceil coalesce collect cos cot count date degrees distance
duration e endNode exists exp floor hasLabels haversin head id indegree isEmpty keys labels
last left length list.dedup list.insert list.insertListElements list.remove list.sort
localdatetime localtime log log10 ltrim max min nodes none outdegree percentileCont
percentileDisc pi point pow properties radians rand randomUUID range reduce relationships
replace reverse right round rtrim shortestPath allShortestPaths sign sin single size split
sqrt startNode stDev stDevP string.join string.matchRegEx string.replaceRegEx substring sum
tail tan timestamp toBoolean toBooleanList toBooleanOrNull toFloat toFloatList toFloatOrNull
toInteger toIntegerList toIntegerOrNull toJSON toLower toString toStringList toStringOrNull
toUpper trim type typeOf vec.cosineDistance vec.euclideanDistance vecf32
"""

# Function names are matched without regard to case, as FalkorDB does.
BUILTIN_FUNCTIONS = frozenset(name.lower() for name in _NAMES.split())

# Lower-cased name -> how it is written. Each reads and returns a bounded answer.
READ_PROCEDURES = {
    name.lower(): name
    for name in (
        "db.labels",
        "db.relationshipTypes",
        "db.propertyKeys",
        "db.idx.fulltext.queryNodes",
    )
}
