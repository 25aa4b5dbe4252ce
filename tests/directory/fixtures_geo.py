"""A site whose listings have coordinates, opening hours and schema.org types."""

from tests import sitebuilder as sb

# Three cafés at known distances from a point in central Casablanca (33.5731, -7.5898):
# about 0.6 km, 3 km and 9 km.
CAFES = {
    "near-cafe": ("مقهى قريب", "33.5780", "-7.5870"),
    "mid-cafe": ("مقهى متوسط", "33.5950", "-7.6050"),
    "far-cafe": ("مقهى بعيد", "33.6000", "-7.6800"),
}


def files():
    files = sb.base_files()
    files["categories/cafes.md"] = sb.metadata_file("مقاه.", Title="مقاه", Slug="cafes",
                                                    Schema_type="CafeOrCoffeeShop")
    for slug, (name, latitude, longitude) in CAFES.items():
        files.update(sb.listing(slug, name, category="cafes", Latitude=latitude,
                                Longitude=longitude, Hours="Mo-Su 08:00-20:00"))
    files.update(sb.listing("no-where-cafe", "مقهى بلا موقع", category="cafes"))
    # Open across midnight on Friday and Saturday, closed on Monday.
    files.update(sb.listing(
        "night-grill", "مشواة الليل", Summary="مشويات <b>حتى الفجر</b>.",
        Latitude="33.5731", Longitude="-7.5898",
        Hours="Tu-Th 18:00-23:30; Fr,Sa 18:00-03:00; Su 12:00-15:00,18:00-23:00"))
    files.update(sb.listing("always-open", "مطعم دائم", Hours="Mo-Su 00:00-24:00"))
    # A district named with its city: its listings' addresses end with "، الدار البيضاء"
    # too, yet they are not Casablanca's.
    files.update(sb.city("sidi-maarouf", "سيدي معروف، الدار البيضاء"))
    files.update(sb.listing("district-grill", "مشواة الحي", city="sidi-maarouf",
                            Street="شارع النخيل"))
    return files
