"""Named objects of the mapped keys from an OpenStreetMap file, with pyosmium.

A node is at its location; a way at its centroid, or, when the centroid falls outside
it (a U-shaped building), at a point inside it (shapely's ``representative_point``);
an open way at the middle of its line. Relations are not read.
"""

from dataclasses import dataclass

import osmium
import shapely

from dalil.directory.sourcefiles import ImportFailed

SUFFIXES = (".osm.pbf", ".pbf", ".osm", ".osm.bz2", ".osm.gz")


@dataclass(frozen=True, slots=True)
class OsmObject:
    kind: str  # "node" or "way"
    id: int
    tags: dict
    latitude: object  # float, or None when the way's nodes are not in the file
    longitude: object
    timestamp: object  # aware datetime

    @property
    def key(self):
        return f"{self.kind}/{self.id}"


def way_point(way):
    """``(latitude, longitude)`` of a way, None when a node's location is missing."""
    try:
        coordinates = [(node.lon, node.lat) for node in way.nodes if node.location.valid()]
    except osmium.InvalidLocationError:
        return None
    if not coordinates or len(coordinates) != len(way.nodes):
        return None
    if len(coordinates) >= 4 and coordinates[0] == coordinates[-1]:
        polygon = shapely.Polygon(coordinates)
        point = polygon.centroid
        if point.is_empty or not polygon.is_valid or not polygon.contains(point):
            point = polygon.representative_point() if polygon.is_valid else \
                shapely.make_valid(polygon).representative_point()
    elif len(coordinates) >= 2:
        point = shapely.LineString(coordinates).interpolate(0.5, normalized=True)
    else:
        point = shapely.Point(coordinates[0])
    if point.is_empty:
        return None
    return point.y, point.x


def read_objects(path, keys, on_object=None):
    """Every node and way of the file at ``path`` that has one of ``keys`` (in file order:
    nodes, then ways); ``on_object`` is called for each object read, for a progress bar."""
    objects = []
    try:
        processor = osmium.FileProcessor(str(path), osmium.osm.NODE | osmium.osm.WAY) \
            .with_locations().with_filter(osmium.filter.KeyFilter(*keys))
        for item in processor:
            if on_object is not None:
                on_object()
            tags = {tag.k: tag.v for tag in item.tags}
            if item.is_node():
                location = item.location
                point = (location.lat, location.lon) if location.valid() else None
                kind = "node"
            else:
                point = way_point(item)
                kind = "way"
            objects.append(OsmObject(kind, item.id, tags, *(point or (None, None)),
                                     item.timestamp))
    except RuntimeError as error:  # libosmium's error for a file it cannot read
        raise ImportFailed(f"{path}: not an OpenStreetMap file: {error}") from None
    return objects
