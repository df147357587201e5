"""Vocabulary pools for the seeded audit corpus (`evidencechain.data.audit`).

Plain data only: names, places, business profiles, review templates and the fact tables
behind the question-answering and news templates. Numbers here are seeds for synthetic
values (every value is jittered per source); none of it is meant as real-world fact.
"""
from __future__ import annotations

FIRST_NAMES = (
    "James", "Maria", "Wei", "Aisha", "Carlos", "Priya", "David", "Sofia", "Kwame", "Elena",
    "Hiroshi", "Fatima", "Michael", "Grace", "Omar", "Linda", "Raj", "Chloe", "Daniel", "Ngozi",
    "Luis", "Hannah", "Andre", "Mei", "Robert", "Isabel", "Tariq", "Emily", "Samuel", "Ana",
    "Jamal", "Olivia", "Victor", "Leila", "Thomas", "Rosa", "Kenji", "Sarah", "Ahmed", "Nora",
    "Marcus", "Julia", "Diego", "Amara", "Patrick", "Yuki", "Brian", "Laura", "Ibrahim", "Megan",
    "Jorge", "Zoe", "Kevin", "Amina", "Sean", "Lucia", "Tyrone", "Rachel", "Hassan", "Claire",
    "Eduardo", "Helen", "Rahul", "Natalie", "Gregory", "Camila", "Dmitri", "Alicia", "Nathan",
    "Simone", "Arjun", "Teresa", "Malik", "Vanessa", "Stefan", "Ingrid", "Jerome", "Paula",
    "Felix", "Renee", "Oscar", "Bianca", "Theo", "Monica", "Colin", "Adaeze", "Ethan", "Carmen",
    "Lamar", "Keiko", "Gabriel", "Denise", "Anders", "Lena", "Howard", "Esther", "Rafael",
    "Yasmin", "Wesley", "Irene", "Tobias", "Marisol", "Declan", "Anjali", "Curtis", "Noemi",
)

LAST_NAMES = (
    "Smith", "Garcia", "Chen", "Okafor", "Patel", "Nguyen", "Johnson", "Rodriguez", "Kim",
    "Mueller", "Hernandez", "Williams", "Kowalski", "Tanaka", "Davis", "Lopez", "Singh",
    "Martinez", "Anderson", "Wilson", "Moreno", "Thompson", "Carter", "Reyes", "Hughes",
    "Castillo", "Ramirez", "Bennett", "Adeyemi", "Sullivan", "Ortiz", "Fischer", "Morales",
    "Coleman", "Jensen", "Delgado", "Russo", "Nakamura", "Walsh", "Gupta", "Barnes", "Novak",
    "Fleming", "Okonkwo", "Schultz", "Vasquez", "Holloway", "Rivera", "Lindqvist", "Mendoza",
    "Chang", "Whitaker", "Abbott", "Sato", "Romano", "Guzman", "Fitzgerald", "Harper", "Iyer",
    "Pham", "Kaplan", "Dawson", "Navarro", "Osei", "Petrov", "Stewart", "Medina", "Haddad",
    "Larsen", "Caldwell", "Kaur", "Santos", "Weber", "Ibarra", "Doyle", "Shapiro", "Molina",
    "Yilmaz", "Boateng", "Ferreira", "Quinn", "Becker", "Estrada", "Chavez", "Albright",
    "Donovan", "Kessler", "Mwangi", "Sorensen", "Ueda", "Vance", "Zamora", "Lindgren",
    "Okoro", "Brennan", "Castro", "Dubois", "Eriksen", "Gallagher", "Horvath", "Jaramillo",
)

STATE_NAMES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia",
    "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas",
    "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts",
    "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
    "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
    "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota",
    "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island",
    "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah",
    "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WI": "Wisconsin", "WY": "Wyoming",
    "AB": "Alberta",
}

# Postal code prefixes used for the Yelp-style records.
ZIP_PREFIX = {
    "PA": ("190", "191", "193", "194"), "FL": ("335", "336", "337", "346"),
    "IN": ("460", "461", "462"), "TN": ("370", "371", "372"), "AZ": ("850", "852", "857"),
    "LA": ("700", "701", "704"), "MO": ("630", "631"), "NV": ("894", "895", "891"),
    "ID": ("836", "837"), "CA": ("930", "931"), "DE": ("197", "198"), "NJ": ("080", "081"),
    "NC": ("282",), "OH": ("441", "443"), "WI": ("537",), "IL": ("618",),
}
ALBERTA_POSTAL = ("T5J", "T5K", "T6E", "T6G", "T8A", "T5T", "T6W")

# Cities that appear in the Yelp open dataset (city, state code).
YELP_CITIES = (
    ("Philadelphia", "PA"), ("Tampa", "FL"), ("Indianapolis", "IN"), ("Nashville", "TN"),
    ("Tucson", "AZ"), ("New Orleans", "LA"), ("Edmonton", "AB"), ("Saint Louis", "MO"),
    ("Reno", "NV"), ("Boise", "ID"), ("Santa Barbara", "CA"), ("Clearwater", "FL"),
    ("Wilmington", "DE"), ("Metairie", "LA"), ("Franklin", "TN"), ("Brandon", "FL"),
    ("Meridian", "ID"), ("Sparks", "NV"), ("Carmel", "IN"), ("Fishers", "IN"),
    ("Cherry Hill", "NJ"), ("Kenner", "LA"), ("Largo", "FL"), ("Goleta", "CA"), ("Marana", "AZ"),
    ("Oro Valley", "AZ"), ("Brentwood", "TN"), ("Hendersonville", "TN"), ("Kirkwood", "MO"),
    ("Chesterfield", "MO"), ("Newark", "DE"), ("Doylestown", "PA"), ("King of Prussia", "PA"),
    ("Conshohocken", "PA"), ("Norristown", "PA"), ("Lansdale", "PA"), ("Ardmore", "PA"),
    ("West Chester", "PA"), ("Wesley Chapel", "FL"), ("Dunedin", "FL"), ("Palm Harbor", "FL"),
    ("Riverview", "FL"), ("Zionsville", "IN"), ("Greenwood", "IN"), ("Noblesville", "IN"),
    ("Gretna", "LA"), ("Slidell", "LA"), ("Mandeville", "LA"), ("Murfreesboro", "TN"),
    ("Smyrna", "TN"), ("Nampa", "ID"), ("Eagle", "ID"), ("Sherwood Park", "AB"),
    ("Florissant", "MO"), ("Maplewood", "MO"), ("Sahuarita", "AZ"), ("Carpinteria", "CA"),
    ("Haddonfield", "NJ"), ("Collingswood", "NJ"), ("Voorhees", "NJ"), ("Pennsauken", "NJ"),
    ("Lutz", "FL"), ("Tarpon Springs", "FL"), ("Mount Laurel", "NJ"), ("Charlotte", "NC"),
    ("Cleveland", "OH"), ("Akron", "OH"), ("Madison", "WI"), ("Champaign", "IL"),
    ("Henderson", "NV"), ("Tempe", "AZ"), ("Chandler", "AZ"), ("Scottsdale", "AZ"),
    ("Covington", "LA"), ("Media", "PA"), ("Bensalem", "PA"), ("Gilbert", "AZ"),
)

# Larger cities for news stories and question answering (city, state code).
US_CITIES = (
    ("Denver", "CO"), ("Portland", "OR"), ("Sacramento", "CA"), ("Austin", "TX"),
    ("Columbus", "OH"), ("Milwaukee", "WI"), ("Albuquerque", "NM"), ("Omaha", "NE"),
    ("Richmond", "VA"), ("Raleigh", "NC"), ("Spokane", "WA"), ("Tulsa", "OK"),
    ("Buffalo", "NY"), ("Hartford", "CT"), ("Des Moines", "IA"), ("Little Rock", "AR"),
    ("Savannah", "GA"), ("Providence", "RI"), ("Boise", "ID"), ("Anchorage", "AK"),
    ("Charleston", "SC"), ("Louisville", "KY"), ("Birmingham", "AL"), ("Jackson", "MS"),
    ("Fresno", "CA"), ("Baltimore", "MD"), ("Minneapolis", "MN"), ("Kansas City", "MO"),
    ("Salt Lake City", "UT"), ("Tacoma", "WA"), ("Akron", "OH"), ("Lexington", "KY"),
    ("Grand Rapids", "MI"), ("Knoxville", "TN"), ("Chattanooga", "TN"), ("Syracuse", "NY"),
    ("Worcester", "MA"), ("Burlington", "VT"), ("Wichita", "KS"), ("Madison", "WI"),
    ("Pittsburgh", "PA"), ("Cincinnati", "OH"), ("Tampa", "FL"), ("Orlando", "FL"),
    ("San Antonio", "TX"), ("El Paso", "TX"), ("Tucson", "AZ"), ("Reno", "NV"),
    ("Billings", "MT"), ("Fargo", "ND"), ("Sioux Falls", "SD"), ("Cheyenne", "WY"),
    ("Manchester", "NH"), ("Portland", "ME"), ("Norfolk", "VA"), ("Toledo", "OH"),
    ("Dayton", "OH"), ("Rochester", "NY"), ("Lansing", "MI"), ("Ann Arbor", "MI"),
    ("Eugene", "OR"), ("Boulder", "CO"), ("Santa Fe", "NM"), ("Baton Rouge", "LA"),
    ("Mobile", "AL"), ("Augusta", "GA"), ("Columbia", "SC"), ("Greensboro", "NC"),
    ("Durham", "NC"), ("Nashville", "TN"), ("Memphis", "TN"), ("Indianapolis", "IN"),
    ("Fort Wayne", "IN"), ("Springfield", "IL"), ("Peoria", "IL"), ("Duluth", "MN"),
    ("Rapid City", "SD"), ("Bozeman", "MT"), ("Olympia", "WA"), ("Bakersfield", "CA"),
)

TOWN_PREFIXES = (
    "Ash", "Birch", "Cedar", "Elm", "Fox", "Glen", "Hazel", "Maple", "Oak", "Pine", "Red",
    "Silver", "Stone", "Willow", "Clear", "Spring", "Mill", "Brook", "Rock", "Lake", "North",
    "West", "East", "Fair", "Green", "High", "Iron", "Marsh", "Bridge", "Wolf", "Deer", "Cole",
)
TOWN_SUFFIXES = (
    "ford", "field", "ton", "ville", "wood", "dale", "brook", "haven", "port", "ridge",
    "burg", "view", "mont", "crest", "bury", "stead", "water", "wick",
)
COUNTY_NAMES = (
    "Jefferson", "Madison", "Hamilton", "Franklin", "Washington", "Marion", "Clay", "Monroe",
    "Jackson", "Lincoln", "Greene", "Warren", "Union", "Lawrence", "Wayne", "Clark", "Butler",
    "Putnam", "Harrison", "Shelby", "Carroll", "Douglas", "Grant", "Hancock", "Knox", "Logan",
    "Pike", "Polk", "Calhoun", "Benton", "Crawford", "Morgan", "Perry", "Scott", "Sullivan",
    "Adams", "Boone", "Dodge", "Fulton", "Howard", "Lee", "Lyon", "Mercer", "Ottawa", "Sumner",
)

STREET_NAMES = (
    "Oak", "Maple", "Pine", "Cedar", "Elm", "Walnut", "Chestnut", "Spruce", "Market",
    "Broad", "Main", "High", "Church", "Mill", "River", "Lake", "Park", "Washington", "Lincoln",
    "Jefferson", "Franklin", "Madison", "Adams", "Jackson", "Grant", "Central", "Union",
    "Highland", "Sunset", "Ridge", "Magnolia", "Willow", "Cypress", "Dogwood", "Hickory",
    "Laurel", "Poplar", "Sycamore", "Bay", "Harbor", "Canal", "Orchard", "Prospect", "Liberty",
    "Commerce", "Summit", "Valley", "Meadow", "Forest", "Spring", "Grove", "College", "Water",
)
STREET_SUFFIXES = ("St", "Ave", "Rd", "Blvd", "Dr", "Ln", "Way", "Pike", "Street", "Avenue", "Road")

NAME_ADJ = (
    "Golden", "Rustic", "Blue", "Urban", "Happy", "Little", "Old Town", "Red", "Silver",
    "Lucky", "Copper", "Green", "Bright", "Humble", "Wild", "Harbor", "Sunset", "Velvet",
    "Iron", "Northside", "Southern", "Crimson", "Hidden", "Twisted", "Lazy", "Salty", "Sweet",
)
NAME_ANIMAL = (
    "Dragon", "Fox", "Bear", "Crane", "Rooster", "Pelican", "Owl", "Tiger", "Heron", "Stag",
    "Otter", "Falcon", "Badger", "Lion", "Panda", "Bison", "Raven", "Goat",
)
NAME_PLACE = (
    "Garden", "Corner", "House", "Kitchen", "Table", "Grill", "Station", "Den", "Market",
    "Terrace", "Cellar", "Porch", "Yard", "Social", "Room", "Shack", "Counter",
)
NAME_SPANISH = ("Sol", "Camino", "Fuego", "Jardin", "Rancho", "Luna", "Toro", "Mercado", "Cielo",
                "Paloma", "Agave", "Nopal")
NAME_JAPANESE = ("Hana", "Sakura", "Kaze", "Yuzu", "Tora", "Mizu", "Kumo", "Umi", "Hoshi")
NAME_FRENCH = ("Lumiere", "Belle", "Matin", "Jolie", "Soleil", "Petite", "Maison", "Rive")
NAME_ITALIAN = ("Bella", "Nonna", "Amici", "Fratelli", "Vesuvio", "Trattoria", "Forno", "Sorrento")
NAME_ASIAN = ("Jade", "Lotus", "Bamboo", "Orchid", "Pearl", "Golden Gate", "Silk Road", "Pagoda")

# ----------------------------------------------------------------------------------------
# Yelp-style business profiles.
#   kind:       which review templates and attributes apply (food, service, shop)
#   nouns:      how a response may refer to the business
#   categories: comma-separated Yelp category strings
#   names:      name patterns; {last} {first} {street} {adj} {animal} {place} {spanish}
#               {japanese} {french} {italian} {asian} are filled from the pools above
#   items:      dishes, services or products that reviews mention
#   roles:      staff roles that reviews mention
#   occasions:  reasons for a visit
#   open, close: ranges of opening / closing hours (24 h clock)
# ----------------------------------------------------------------------------------------
BUSINESS_PROFILES = (
    dict(kind="food", nouns=("pizzeria", "pizza place", "Italian eatery"),
         categories=("Pizza, Restaurants, Italian", "Restaurants, Pizza, Salad, Italian",
                     "Italian, Pizza, Restaurants, Wine Bars", "Pizza, Restaurants"),
         names=("{last}'s Pizzeria", "{first}'s Pizza Kitchen", "{adj} Crust Pizza",
                "{street} Street Pizza", "Pizzeria {italian}", "{italian} Pizza and Pasta"),
         items=("margherita pizza", "pepperoni slice", "garlic knots", "calzone", "Caesar salad",
                "meatball sub", "white pizza", "buffalo wings", "cannoli", "baked ziti",
                "Sicilian square", "eggplant parm", "chicken alfredo", "burrata salad"),
         roles=("server", "waitress", "cashier", "bartender"),
         occasions=("a family dinner", "a quick lunch", "game night takeout", "a birthday dinner",
                    "a late dinner"),
         open=(10, 12), close=(21, 23)),
    dict(kind="food", nouns=("taqueria", "Mexican restaurant", "taco spot"),
         categories=("Mexican, Restaurants, Tacos", "Restaurants, Mexican, Tex-Mex",
                     "Tacos, Mexican, Restaurants, Bars"),
         names=("Taqueria {spanish}", "{first}'s Cantina", "El {spanish}", "La {spanish} Kitchen",
                "{spanish} Taco Shop", "Casa {spanish}"),
         items=("carne asada tacos", "al pastor tacos", "chicken burrito", "carnitas plate",
                "elote", "chips and salsa", "horchata", "cheese enchiladas", "guacamole",
                "fish tacos", "churros", "birria tacos", "chile relleno", "shrimp quesadilla"),
         roles=("server", "waiter", "cashier", "bartender"),
         occasions=("taco Tuesday", "a quick lunch", "a friend's birthday", "a work lunch",
                    "a casual dinner"),
         open=(9, 11), close=(20, 23)),
    dict(kind="food", nouns=("Chinese restaurant", "restaurant", "Chinese eatery"),
         categories=("Chinese, Restaurants", "Restaurants, Chinese, Dim Sum",
                     "Szechuan, Chinese, Restaurants, Noodles"),
         names=("Golden {animal}", "{asian} Lantern", "{asian} Kitchen", "Lucky {animal}",
                "{asian} Palace", "Red {animal} Noodle House"),
         items=("pork dumplings", "hot and sour soup", "General Tso chicken", "beef chow fun",
                "scallion pancakes", "mapo tofu", "dan dan noodles", "shrimp fried rice",
                "egg rolls", "Peking duck", "soup dumplings", "orange chicken", "walnut shrimp"),
         roles=("server", "waiter", "host", "manager"),
         occasions=("a family dinner", "a takeout night", "a Sunday dim sum brunch",
                    "a work lunch", "a holiday dinner"),
         open=(10, 11), close=(21, 23)),
    dict(kind="food", nouns=("sushi restaurant", "Japanese restaurant", "sushi bar"),
         categories=("Sushi Bars, Japanese, Restaurants", "Restaurants, Ramen, Japanese",
                     "Japanese, Sushi Bars, Asian Fusion, Restaurants"),
         names=("Sushi {japanese}", "{japanese} Ramen House", "Koi {place}", "{japanese} Sushi Bar",
                "{japanese} Izakaya"),
         items=("spicy tuna roll", "salmon nigiri", "tonkotsu ramen", "chicken katsu",
                "miso soup", "edamame", "dragon roll", "gyoza", "tempura udon", "omakase",
                "yellowtail sashimi", "rainbow roll", "takoyaki"),
         roles=("server", "sushi chef", "waitress", "host"),
         occasions=("date night", "a quick lunch", "a birthday dinner", "happy hour",
                    "an anniversary dinner"),
         open=(11, 12), close=(21, 22)),
    dict(kind="food", nouns=("Thai restaurant", "restaurant", "Thai eatery"),
         categories=("Thai, Restaurants", "Restaurants, Thai, Noodles, Vegetarian"),
         names=("Thai {place}", "{animal} Thai Kitchen", "Bangkok {place}", "Siam {place}",
                "Thai Orchid {place}"),
         items=("pad thai", "green curry", "drunken noodles", "tom yum soup",
                "mango sticky rice", "papaya salad", "massaman curry", "Thai iced tea",
                "pad see ew", "panang curry", "crab rangoon", "basil fried rice"),
         roles=("server", "waitress", "owner", "host"),
         occasions=("a takeout night", "a quick lunch", "a girls' night", "a date night",
                    "a work lunch"),
         open=(11, 11), close=(20, 22)),
    dict(kind="food", nouns=("Indian restaurant", "restaurant", "curry house"),
         categories=("Indian, Restaurants", "Restaurants, Indian, Pakistani, Halal",
                     "Indian, Buffets, Restaurants"),
         names=("Taj {place}", "Curry {place}", "Spice {place}", "Saffron {place}",
                "{first}'s Tandoor", "Masala {place}"),
         items=("chicken tikka masala", "garlic naan", "lamb vindaloo", "vegetable samosas",
                "saag paneer", "goat biryani", "mango lassi", "butter chicken", "chana masala",
                "lunch buffet", "tandoori chicken", "malai kofta"),
         roles=("server", "owner", "waiter", "manager"),
         occasions=("the lunch buffet", "a family dinner", "a takeout night", "a work lunch",
                    "a birthday dinner"),
         open=(11, 11), close=(21, 22)),
    dict(kind="food", nouns=("diner", "breakfast spot", "brunch place"),
         categories=("Breakfast & Brunch, American (Traditional), Restaurants",
                     "Diners, Breakfast & Brunch, Restaurants",
                     "Restaurants, American (New), Breakfast & Brunch, Cafes"),
         names=("The {adj} Skillet", "{first}'s Diner", "Sunny Side {place}",
                "{street} Street Diner", "{adj} Yolk Cafe", "The Breakfast {place}"),
         items=("buttermilk pancakes", "eggs Benedict", "corned beef hash", "French toast",
                "biscuits and gravy", "western omelet", "hash browns", "chicken and waffles",
                "cinnamon roll", "breakfast burrito", "shrimp and grits", "avocado toast"),
         roles=("server", "waitress", "cook", "host"),
         occasions=("Sunday brunch", "a quick breakfast", "a Mother's Day brunch",
                    "breakfast before work", "a late brunch"),
         open=(6, 8), close=(14, 16)),
    dict(kind="food", nouns=("burger joint", "burger bar", "restaurant"),
         categories=("Burgers, American (Traditional), Restaurants",
                     "Restaurants, Burgers, Fast Food", "Burgers, Bars, American (New)"),
         names=("{last} Burger Bar", "Burger {place}", "{adj} Patty", "{street} Burger Co",
                "The {adj} Bun"),
         items=("bacon cheeseburger", "sweet potato fries", "onion rings", "chocolate milkshake",
                "veggie burger", "chili cheese fries", "fried chicken sandwich", "patty melt",
                "smash burger", "truffle fries"),
         roles=("cashier", "server", "manager", "bartender"),
         occasions=("a quick lunch", "a game day lunch", "a family dinner", "a late-night bite",
                    "a work lunch"),
         open=(10, 11), close=(21, 23)),
    dict(kind="food", nouns=("barbecue joint", "smokehouse", "BBQ restaurant"),
         categories=("Barbeque, Restaurants, Southern", "Restaurants, Barbeque, Caterers",
                     "Barbeque, American (Traditional), Restaurants"),
         names=("{last}'s Smokehouse", "{adj} Pit BBQ", "Smoke and {place}", "{first}'s BBQ",
                "{street} Street Barbecue"),
         items=("brisket", "pulled pork sandwich", "baby back ribs", "mac and cheese",
                "burnt ends", "cornbread", "smoked turkey", "collard greens", "banana pudding",
                "smoked sausage", "baked beans", "brisket tacos"),
         roles=("pitmaster", "cashier", "server", "owner"),
         occasions=("a family dinner", "a quick lunch", "a catering order", "a Saturday lunch",
                    "a birthday party"),
         open=(10, 11), close=(20, 21)),
    dict(kind="food", nouns=("coffee shop", "cafe", "coffee house"),
         categories=("Coffee & Tea, Cafes, Food", "Food, Coffee & Tea, Bakeries",
                     "Cafes, Coffee & Tea, Breakfast & Brunch"),
         names=("{adj} Bean Coffee", "{street} Street Roasters", "Cafe {french}", "The {adj} Cup",
                "{animal} Coffee Co"),
         items=("cold brew", "oat milk latte", "cortado", "almond croissant", "blueberry muffin",
                "avocado toast", "chai latte", "drip coffee", "matcha latte",
                "breakfast sandwich", "lavender latte", "pour-over"),
         roles=("barista", "owner", "cashier", "manager"),
         occasions=("a morning coffee", "a work session", "a study afternoon",
                    "a coffee date", "a quick breakfast"),
         open=(6, 7), close=(15, 19)),
    dict(kind="food", nouns=("bakery", "bake shop", "pastry shop"),
         categories=("Bakeries, Food, Desserts", "Food, Bakeries, Cupcakes",
                     "Bakeries, Coffee & Tea, Food, Patisserie/Cake Shop"),
         names=("{adj} Rolling Pin", "{french} Bakery", "{first}'s Bake Shop", "Flour and {place}",
                "{street} Street Bakery"),
         items=("sourdough loaf", "chocolate croissant", "cinnamon bun", "macarons",
                "birthday cake", "red velvet cupcakes", "baguette", "fruit tart", "kouign-amann",
                "chocolate chip cookies", "lemon bars", "apple turnover"),
         roles=("baker", "cashier", "owner", "decorator"),
         occasions=("a birthday order", "a weekend treat", "a wedding cake tasting",
                    "a morning pastry run", "an office party order"),
         open=(6, 8), close=(14, 18)),
    dict(kind="food", nouns=("pub", "bar", "taproom"),
         categories=("Bars, Pubs, Nightlife, American (Traditional)",
                     "Nightlife, Bars, Beer Bar, Gastropubs", "Pubs, Irish, Nightlife, Bars"),
         names=("The {adj} {animal} Pub", "{last}'s Tavern", "{street} Street Taproom",
                "The {animal} and {place}", "{adj} Barrel Tavern"),
         items=("craft beer flight", "fish and chips", "chicken wings", "loaded nachos",
                "house IPA", "old fashioned", "pub burger", "soft pretzel", "Irish coffee",
                "shepherd's pie", "fried pickles"),
         roles=("bartender", "server", "manager", "owner"),
         occasions=("trivia night", "happy hour", "a game night", "a birthday drink",
                    "a Friday night out"),
         open=(11, 16), close=(23, 23)),
    dict(kind="food", nouns=("seafood restaurant", "seafood spot", "oyster bar"),
         categories=("Seafood, Restaurants, Cajun/Creole", "Restaurants, Seafood, Bars",
                     "Seafood, Fish & Chips, Restaurants"),
         names=("The {adj} {animal} Oyster Bar", "{last}'s Crab Shack", "{street} Fish House",
                "Harbor {place}", "The {adj} Pelican"),
         items=("lobster roll", "clam chowder", "fried oysters", "shrimp po boy",
                "grilled salmon", "crab cakes", "raw oysters", "seafood boil", "gumbo",
                "blackened redfish", "crawfish etouffee", "fried catfish"),
         roles=("server", "waiter", "bartender", "host"),
         occasions=("a family dinner", "a date night", "happy hour", "an anniversary dinner",
                    "a Sunday lunch"),
         open=(11, 11), close=(21, 22)),
    dict(kind="food", nouns=("Vietnamese restaurant", "pho shop", "restaurant"),
         categories=("Vietnamese, Restaurants, Noodles", "Restaurants, Vietnamese, Sandwiches"),
         names=("Pho {place}", "Saigon {place}", "{asian} Pho", "Banh Mi {place}",
                "Little Saigon {place}"),
         items=("beef pho", "banh mi", "spring rolls", "vermicelli bowl",
                "Vietnamese iced coffee", "bun bo Hue", "broken rice plate", "crispy egg rolls",
                "lemongrass chicken", "pho ga"),
         roles=("server", "owner", "cashier", "waitress"),
         occasions=("a quick lunch", "a rainy day lunch", "a takeout night", "a work lunch",
                    "a family dinner"),
         open=(9, 11), close=(20, 21)),
    dict(kind="food", nouns=("Mediterranean restaurant", "restaurant", "grill"),
         categories=("Mediterranean, Restaurants, Greek", "Restaurants, Middle Eastern, Halal",
                     "Greek, Mediterranean, Restaurants, Falafel"),
         names=("{place} of Athens", "Olive {place}", "Cedar {place} Grill", "{first}'s Kabob House",
                "Pita {place}"),
         items=("falafel wrap", "chicken shawarma", "hummus plate", "gyro platter", "baklava",
                "lamb kebab", "tabbouleh", "spanakopita", "lentil soup", "beef kofta"),
         roles=("server", "owner", "cashier", "manager"),
         occasions=("a quick lunch", "a family dinner", "a work lunch", "a takeout night",
                    "a friend's birthday"),
         open=(10, 11), close=(20, 22)),
    dict(kind="food", nouns=("ice cream shop", "dessert shop", "creamery"),
         categories=("Ice Cream & Frozen Yogurt, Desserts, Food", "Food, Desserts, Gelato"),
         names=("{adj} Scoop", "{first}'s Creamery", "The {adj} Cone", "{street} Street Gelato",
                "Sweet {animal} Ice Cream"),
         items=("salted caramel ice cream", "waffle cone", "hot fudge sundae", "pistachio gelato",
                "strawberry milkshake", "affogato", "mango sorbet", "cookie dough scoop",
                "banana split"),
         roles=("scooper", "cashier", "owner", "manager"),
         occasions=("a summer night treat", "a kid's birthday", "a date night", "a family outing",
                    "an after-dinner treat"),
         open=(11, 12), close=(21, 22)),
    dict(kind="service", nouns=("hair salon", "salon", "hair studio"),
         categories=("Hair Salons, Beauty & Spas, Hair Stylists",
                     "Beauty & Spas, Hair Salons, Blow Dry/Out Services",
                     "Barbers, Hair Salons, Beauty & Spas"),
         names=("{first} and Co Salon", "Studio {french}", "{adj} Shears", "Salon {french}",
                "The {adj} Chair"),
         items=("haircut", "balayage", "blowout", "color correction", "beard trim",
                "highlights", "keratin treatment", "bridal updo", "root touch-up"),
         roles=("stylist", "colorist", "receptionist", "barber"),
         occasions=("a last-minute appointment", "my first visit", "a wedding trial",
                    "a regular trim", "a color appointment"),
         open=(9, 10), close=(18, 20)),
    dict(kind="service", nouns=("auto repair shop", "garage", "auto shop"),
         categories=("Automotive, Auto Repair, Oil Change Stations",
                     "Auto Repair, Automotive, Tires", "Automotive, Auto Repair, Smog Check Stations"),
         names=("{last} Auto Care", "{street} Street Garage", "{adj} Auto Repair",
                "{first}'s Automotive", "{last} and Sons Service Center"),
         items=("oil change", "brake repair", "tire rotation", "transmission flush",
                "AC recharge", "state inspection", "wheel alignment", "check engine diagnosis",
                "timing belt replacement", "battery replacement"),
         roles=("mechanic", "service advisor", "technician", "owner"),
         occasions=("a routine oil change", "a breakdown on the highway", "a pre-trip inspection",
                    "a warning light", "a used car inspection"),
         open=(7, 8), close=(17, 18)),
    dict(kind="service", nouns=("dental office", "dentist", "dental practice"),
         categories=("Dentists, Health & Medical, General Dentistry",
                     "Health & Medical, Cosmetic Dentists, Dentists"),
         names=("{last} Family Dentistry", "{adj} Smiles Dental", "{street} Dental Group",
                "{last} and {last2} Dental Care", "Bright Smile {place}"),
         items=("teeth cleaning", "filling", "crown", "whitening", "root canal",
                "checkup", "Invisalign consultation", "wisdom tooth extraction", "X-rays"),
         roles=("hygienist", "dentist", "receptionist", "assistant"),
         occasions=("a routine cleaning", "a dental emergency", "my first appointment",
                    "a cracked tooth", "a six-month checkup"),
         open=(7, 8), close=(16, 18)),
    dict(kind="service", nouns=("gym", "fitness studio", "fitness center"),
         categories=("Gyms, Active Life, Fitness & Instruction",
                     "Fitness & Instruction, Yoga, Pilates, Active Life",
                     "Active Life, Gyms, Trainers, Boot Camps"),
         names=("{adj} Fitness", "{last} Strength and Conditioning", "Iron {animal} Gym",
                "{street} Street Yoga", "{adj} Cycle Studio"),
         items=("personal training session", "spin class", "yoga class", "day pass",
                "monthly membership", "boot camp class", "HIIT class", "Pilates reformer class"),
         roles=("trainer", "instructor", "front desk associate", "owner"),
         occasions=("a free trial week", "a drop-in class", "my first session",
                    "a New Year reset", "a visit while traveling"),
         open=(5, 6), close=(20, 22)),
    dict(kind="service", nouns=("pet groomer", "grooming salon", "animal hospital"),
         categories=("Pets, Pet Services, Pet Groomers", "Veterinarians, Pets, Pet Services"),
         names=("{adj} Paws Grooming", "{last} Animal Hospital", "Happy Tails {place}",
                "{street} Street Veterinary Clinic", "The {adj} Leash"),
         items=("full groom", "nail trim", "bath and brush", "rabies vaccination",
                "wellness exam", "dental cleaning", "flea treatment", "puppy checkup"),
         roles=("groomer", "vet tech", "veterinarian", "receptionist"),
         occasions=("a puppy's first groom", "an annual checkup", "a limping dog",
                    "a routine nail trim", "a new kitten visit"),
         open=(7, 8), close=(17, 18)),
    dict(kind="service", nouns=("nail salon", "day spa", "spa"),
         categories=("Nail Salons, Beauty & Spas", "Day Spas, Massage, Beauty & Spas",
                     "Beauty & Spas, Nail Salons, Waxing"),
         names=("{adj} Nails and Spa", "Serenity {place} Spa", "{french} Day Spa",
                "Polished {place}", "{first}'s Nail Lounge"),
         items=("gel manicure", "spa pedicure", "acrylic full set", "deep tissue massage",
                "hydrating facial", "hot stone massage", "eyebrow wax", "dip powder nails"),
         roles=("nail tech", "massage therapist", "esthetician", "receptionist"),
         occasions=("a birthday treat", "a girls' day out", "a walk-in visit",
                    "a pre-wedding appointment", "a gift certificate visit"),
         open=(9, 10), close=(18, 20)),
    dict(kind="service", nouns=("dry cleaner", "tailor shop", "alterations shop"),
         categories=("Dry Cleaning & Laundry, Local Services, Sewing & Alterations",
                     "Local Services, Sewing & Alterations, Dry Cleaning"),
         names=("{adj} Cleaners", "{street} Street Tailors", "{first}'s Alterations",
                "Pressed {place} Dry Cleaning", "{last} Fine Tailoring"),
         items=("suit dry cleaning", "pants hemming", "wedding dress alteration",
                "shirt laundering", "zipper replacement", "sleeve shortening",
                "comforter cleaning"),
         roles=("tailor", "owner", "clerk", "seamstress"),
         occasions=("a rush order", "a wedding suit", "my weekly shirts", "a job interview suit",
                    "a prom dress"),
         open=(7, 8), close=(17, 19)),
    dict(kind="shop", nouns=("florist", "flower shop", "floral studio"),
         categories=("Florists, Flowers & Gifts, Shopping", "Shopping, Florists, Event Planning & Services"),
         names=("{adj} Petal Florist", "{first}'s Flowers", "{street} Street Blooms",
                "The {adj} Stem", "Bloom and {place}"),
         items=("birthday bouquet", "bridal bouquet", "succulent planter", "dozen red roses",
                "sympathy arrangement", "peony bouquet", "centerpiece"),
         roles=("florist", "owner", "designer", "delivery driver"),
         occasions=("Mother's Day", "an anniversary", "a funeral", "a last-minute birthday",
                    "a wedding"),
         open=(8, 9), close=(17, 18)),
    dict(kind="shop", nouns=("bookstore", "bookshop", "independent bookstore"),
         categories=("Bookstores, Books, Mags, Music & Video, Shopping",
                     "Shopping, Bookstores, Used Bookstore"),
         names=("{adj} Page Books", "{street} Street Books", "{last} and {last2} Booksellers",
                "The {adj} Owl Bookshop", "Chapter {place}"),
         items=("used paperbacks", "signed first edition", "picture books", "graphic novels",
                "poetry section", "staff picks shelf", "mystery section"),
         roles=("bookseller", "owner", "clerk", "manager"),
         occasions=("a rainy afternoon", "a gift search", "story time with my kids",
                    "an author signing", "a weekend browse"),
         open=(9, 10), close=(19, 21)),
    dict(kind="shop", nouns=("bike shop", "bicycle store", "cycle shop"),
         categories=("Bikes, Sporting Goods, Shopping, Bike Repair/Maintenance",
                     "Shopping, Bikes, Bike Rentals"),
         names=("{adj} Spoke Cycles", "{street} Street Bikes", "{last} Bicycle Co",
                "The {adj} Chain", "{animal} Cycles"),
         items=("tune-up", "road bike", "flat tire repair", "helmet", "e-bike rental",
                "kids' bike", "brake adjustment", "bike fitting"),
         roles=("mechanic", "owner", "salesperson", "manager"),
         occasions=("a spring tune-up", "a first road bike", "a flat before a race",
                    "a weekend rental", "a commuter setup"),
         open=(9, 10), close=(18, 19)),
    dict(kind="shop", nouns=("market", "grocery store", "specialty market"),
         categories=("Grocery, Food, Specialty Food", "Food, Grocery, Delis, Organic Stores",
                     "Specialty Food, Grocery, Food, International Grocery"),
         names=("{adj} Market", "{street} Street Grocer", "{last}'s Fine Foods",
                "{adj} Basket Market", "The {place} Pantry"),
         items=("fresh produce", "deli sandwiches", "local honey", "hot bar",
                "fresh bread", "craft beer selection", "cheese counter", "rotisserie chicken"),
         roles=("cashier", "butcher", "deli clerk", "manager"),
         occasions=("a weekly grocery run", "a quick lunch", "a party platter order",
                    "a holiday shopping trip", "a picnic stop"),
         open=(7, 8), close=(20, 22)),
)

POSITIVE_ADJ = {
    "food": ("delicious", "perfect", "fresh and flavorful", "outstanding",
             "really tasty", "excellent", "generous and tasty", "full of flavor", "spot on"),
    "service": ("flawless", "quick and thorough", "excellent", "very professional",
                "exactly what I wanted", "done perfectly", "fairly priced", "top notch"),
    "shop": ("beautiful", "well organized", "great value", "exactly what I needed",
             "excellent", "thoughtfully curated", "top notch"),
}
NEGATIVE_ADJ = {
    "food": ("a bit bland", "lukewarm", "overcooked", "too salty", "dry", "underwhelming",
             "soggy", "overpriced"),
    "service": ("rushed", "overpriced", "a bit sloppy", "slower than promised", "disorganized"),
    "shop": ("overpriced", "picked over", "disorganized", "hard to find", "a bit pricey"),
}
WEEKDAY_WORDS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

# Review templates by business kind. `facts` lists the response facts each one supports;
# the frames for each fact live in audit.REVIEW_FACT_FRAMES.
REVIEW_TEMPLATES = {
    "food": (
        dict(stars=(4, 5), facts=("item_praise", "staff", "visit"),
             text="Came here for {occasion} and ordered the {item}. {It_be} {adj_pos} and the "
                  "portions were generous. {staff}, our {role}, was friendly and checked on us "
                  "often. Will be back!"),
        dict(stars=(3, 4), facts=("wait", "item_praise", "complaint"),
             text="We waited about {minutes} minutes for a table on a {weekday} night, but it "
                  "was worth it. The {item} {be} {adj_pos}. The only miss was the {item2}, which "
                  "{be2} {adj_neg}."),
        dict(stars=(3, 4), facts=("item_praise", "price", "complaint"),
             text="Solid spot. The {item} {is_} {adj_pos} and only {price}. Service can be slow "
                  "when it gets busy, and the {item2} {be2} {adj_neg} this time."),
        dict(stars=(1, 2), facts=("wait", "complaint"),
             text="Disappointing visit. We waited {minutes} minutes for our food and the "
                  "{item2} {be2} {adj_neg}. {staff} apologized and took it off the bill, which "
                  "was nice, but I probably won't return."),
        dict(stars=(4, 5), facts=("regular", "price"),
             text="My go-to place for {occasion}. I always get the {item} and it never "
                  "disappoints. Prices are fair, around {price} for the {item}. The staff "
                  "are always welcoming."),
        dict(stars=(4, 5), facts=("staff_rec", "item_praise", "complaint"),
             text="First time here. {staff} recommended the {item} and {they} {be} {adj_pos}. We "
                  "also tried the {item2}, which {be2} {adj_neg}. Parking was easy enough."),
        dict(stars=(3, 5), facts=("item_praise", "wait"),
             text="Great {noun} with a cozy vibe. The {item} {be} {adj_pos}, but we had to wait "
                  "{minutes} minutes for the check on a busy {weekday}."),
        dict(stars=(5, 5), facts=("item_praise", "staff", "regular"),
             text="The {item} here {is_} {adj_pos}. I have been coming for years and {staff} the "
                  "{role} always remembers my order. Hidden gem!"),
        dict(stars=(2, 3), facts=("price", "complaint"),
             text="Pretty average. Paid {price} for the {item} and the {item2} {be2} "
                  "{adj_neg}. Friendly {role} though."),
    ),
    "service": (
        dict(stars=(4, 5), facts=("item_praise", "staff", "visit"),
             text="Booked {occasion} and {staff} took care of my {item}. The result was "
                  "{adj_pos} and the place was spotless. Highly recommend asking for {staff}."),
        dict(stars=(4, 5), facts=("price", "item_praise"),
             text="Fair and honest. My {item} {be} {adj_pos} and cost {price}, less than the "
                  "quote I got elsewhere."),
        dict(stars=(1, 2), facts=("wait", "complaint"),
             text="I waited {minutes} minutes past my appointment time on a {weekday}. The "
                  "{item2} felt {adj_neg} and nobody explained the charges."),
        dict(stars=(3, 4), facts=("wait", "item_praise", "staff"),
             text="They squeezed me in for {occasion} with only a {minutes} minute wait. "
                  "{staff}, the {role}, was patient and the {item} {be} {adj_pos}."),
        dict(stars=(5, 5), facts=("regular", "staff"),
             text="I have trusted this {noun} with my {item} for years. {staff} the {role} "
                  "always explains everything and never pushes extra services."),
        dict(stars=(2, 3), facts=("price", "complaint"),
             text="Mixed feelings. The {item} cost {price}, and the {item2} {be2} {adj_neg}. "
                  "The front desk was polite, though."),
        dict(stars=(4, 5), facts=("staff_rec", "item_praise"),
             text="Came in for {occasion}. {staff} recommended the {item} and {they} {be} {adj_pos}. "
                  "Easy online booking and plenty of parking."),
    ),
    "shop": (
        dict(stars=(4, 5), facts=("item_praise", "staff", "visit"),
             text="Stopped in for {occasion} and {staff} helped me pick out the {item}. It "
                  "was {adj_pos}. Lovely {noun} with a warm atmosphere."),
        dict(stars=(4, 5), facts=("price", "regular"),
             text="My favorite {noun} in town. I come back for the {item} again and again, "
                  "and {they} {is_} usually around {price}."),
        dict(stars=(2, 3), facts=("wait", "complaint"),
             text="Waited {minutes} minutes at the register on a {weekday} afternoon. The "
                  "{item2} {be2} {adj_neg}, which was a letdown."),
        dict(stars=(3, 5), facts=("staff_rec", "item_praise", "price"),
             text="{staff}, the {role}, recommended the {item}, and {they} {be} {adj_pos}. Paid "
                  "{price}, which felt fair."),
        dict(stars=(3, 4), facts=("item_praise", "complaint"),
             text="The {item} {be} {adj_pos}, although the {item2} {be2} {adj_neg} when I "
                  "visited for {occasion}."),
    ),
}

# Attributes: (Yelp key, values it may take, response phrase when the value is positive).
# A phrase of None means the attribute is never described as an offered feature.
FOOD_ATTRIBUTES = (
    ("RestaurantsTakeOut", ("True", "True", "False"), "takeout"),
    ("RestaurantsDelivery", ("True", "False"), "delivery"),
    ("OutdoorSeating", ("True", "False"), "outdoor seating"),
    ("RestaurantsReservations", ("True", "False"), "table reservations"),
    ("HasTV", ("True", "False"), "TVs for watching games"),
    ("GoodForKids", ("True", "True", "False"), "a kid-friendly setting"),
    ("Caters", ("True", "False"), "catering for events"),
    ("BikeParking", ("True", "False"), "bike parking"),
    ("BusinessAcceptsCreditCards", ("True", "True", "True"), "credit card payments"),
    ("DogsAllowed", ("True", "False"), "a dog-friendly space"),
    ("WheelchairAccessible", ("True", "True", "False"), "wheelchair access"),
    ("HappyHour", ("True", "False"), "happy hour deals"),
    ("DriveThru", ("True", "False", "False"), "a drive-through window"),
    ("GoodForDancing", ("True", "False", "False"), "a dance floor"),
)
SERVICE_ATTRIBUTES = (
    ("BusinessAcceptsCreditCards", ("True", "True", "False"), "credit card payments"),
    ("ByAppointmentOnly", ("True", "False"), "appointment-only service"),
    ("WheelchairAccessible", ("True", "True", "False"), "wheelchair access"),
    ("BikeParking", ("True", "False"), "bike parking"),
    ("GoodForKids", ("True", "False"), "a kid-friendly setting"),
    ("DogsAllowed", ("True", "False"), "a dog-friendly space"),
    ("AcceptsInsurance", ("True", "False"), "insurance billing"),
)
SHOP_ATTRIBUTES = (
    ("BusinessAcceptsCreditCards", ("True", "True", "False"), "credit card payments"),
    ("BikeParking", ("True", "False"), "bike parking"),
    ("WheelchairAccessible", ("True", "True", "False"), "wheelchair access"),
    ("DogsAllowed", ("True", "False"), "a dog-friendly space"),
    ("RestaurantsDelivery", ("True", "False"), "delivery"),
    ("GoodForKids", ("True", "False"), "a kid-friendly setting"),
)
WIFI_VALUES = (("u'free'", "free WiFi"), ("'free'", "free WiFi"), ("u'no'", None),
               ("'paid'", "paid WiFi"), ("u'no'", None))
ALCOHOL_VALUES = (("u'full_bar'", "a full bar"), ("u'beer_and_wine'", "beer and wine"),
                  ("'none'", None), ("u'none'", None))
NOISE_VALUES = (("u'average'", "average"), ("u'quiet'", "quiet"), ("'loud'", "loud"),
                ("u'average'", "average"))
ATTIRE_VALUES = (("'casual'", "casual"), ("u'casual'", "casual"), ("'dressy'", "dressy"))
PRICE_WORDS = {"1": "inexpensive", "2": "moderately priced", "3": "on the pricier side",
               "4": "upscale"}
PARKING_KINDS = ("garage", "street", "validated", "lot", "valet")
MUSIC_KINDS = {"live": "live music", "dj": "a DJ on weekends", "jukebox": "a jukebox",
               "karaoke": "karaoke nights"}
PARKING_PHRASES = {"garage": "garage parking", "street": "street parking",
                   "validated": "validated parking", "lot": "a parking lot",
                   "valet": "valet parking"}

# Features that Yelp records never list: (phrase, words whose presence in the source would
# make the feature supported or contradicted).
EXTRA_FEATURES = (
    ("live music", ("music",)),
    ("a rooftop patio", ("rooftop", "patio")),
    ("a drive-through window", ("drive",)),
    ("gluten-free options", ("gluten",)),
    ("a children's play area", ("play area", "playground")),
    ("a free shuttle service", ("shuttle",)),
    ("a loyalty rewards program", ("loyalty", "reward")),
    ("EV charging stations", ("charging", "ev ")),
    ("a private event room", ("private", "event")),
    ("24-hour emergency service", ("24-hour", "24 hour", "emergency")),
    ("complimentary consultations", ("consult",)),
    ("a weekend brunch menu", ("brunch",)),
    ("vegan options", ("vegan",)),
    ("late-night hours", ("late-night", "late night")),
    ("a seasonal tasting menu", ("tasting",)),
    ("military discounts", ("military", "discount")),
    ("a karaoke night", ("karaoke",)),
    ("curbside pickup", ("curbside",)),
    ("a heated patio", ("patio", "heated")),
    ("a members-only lounge", ("lounge", "member")),
)

PUBLICATIONS = (
    "the Food Network", "a local lifestyle magazine", "Southern Living", "the city's alt-weekly",
    "a national travel guide", "a morning news segment", "a regional food blog",
)

# ----------------------------------------------------------------------------------------
# Question answering (MS MARCO style) fact tables.
# ----------------------------------------------------------------------------------------
JOBS = (  # singular, plural, base annual salary
    ("registered nurse", "registered nurses", 75000), ("electrician", "electricians", 60000),
    ("dental hygienist", "dental hygienists", 78000),
    ("software developer", "software developers", 110000),
    ("pharmacist", "pharmacists", 125000), ("physical therapist", "physical therapists", 90000),
    ("high school teacher", "high school teachers", 62000),
    ("truck driver", "truck drivers", 50000), ("accountant", "accountants", 73000),
    ("plumber", "plumbers", 58000), ("paralegal", "paralegals", 52000),
    ("web designer", "web designers", 65000), ("veterinarian", "veterinarians", 100000),
    ("firefighter", "firefighters", 52000), ("police officer", "police officers", 65000),
    ("speech pathologist", "speech pathologists", 80000),
    ("radiologic technologist", "radiologic technologists", 63000),
    ("medical assistant", "medical assistants", 38000),
    ("HVAC technician", "HVAC technicians", 52000), ("civil engineer", "civil engineers", 88000),
    ("graphic designer", "graphic designers", 54000), ("social worker", "social workers", 52000),
    ("occupational therapist", "occupational therapists", 85000), ("welder", "welders", 45000),
    ("airline pilot", "airline pilots", 130000), ("dietitian", "dietitians", 63000),
    ("librarian", "librarians", 60000), ("surgical technologist", "surgical technologists", 50000),
    ("court reporter", "court reporters", 58000), ("landscape architect", "landscape architects", 70000),
)
SALARY_SOURCES = ("the Bureau of Labor Statistics", "the state labor department",
                  "the salary survey site PayScale", "a recent industry survey",
                  "job listings collected by Indeed")

FOODS = (  # serving, food, calories, carbs (g), protein (g)
    ("a medium", "banana", 105, 27, 1.3), ("a medium", "apple", 95, 25, 0.5),
    ("one whole", "avocado", 240, 13, 3.0), ("a plain", "bagel", 270, 53, 10.0),
    ("one slice of", "cheese pizza", 285, 36, 12.0), ("one cup of", "cooked white rice", 205, 45, 4.3),
    ("one large", "hard-boiled egg", 78, 1, 6.3), ("one cup of", "whole milk", 149, 12, 7.7),
    ("one ounce of", "almonds", 164, 6, 6.0), ("one cup of", "cooked oatmeal", 158, 27, 6.0),
    ("one slice of", "whole wheat bread", 81, 14, 4.0), ("a medium", "baked potato", 161, 37, 4.3),
    ("one cup of", "black beans", 227, 41, 15.0), ("three ounces of", "grilled chicken breast", 140, 0, 26.0),
    ("one cup of", "plain Greek yogurt", 130, 9, 23.0), ("one", "glazed doughnut", 240, 31, 3.0),
    ("one cup of", "orange juice", 112, 26, 1.7), ("two tablespoons of", "peanut butter", 190, 7, 7.0),
    ("a medium", "sweet potato", 103, 24, 2.3), ("one cup of", "steamed broccoli", 55, 11, 3.7),
    ("one cup of", "cooked quinoa", 222, 39, 8.0), ("one ounce of", "cheddar cheese", 114, 0.4, 7.0),
    ("a large", "blueberry muffin", 470, 67, 6.0), ("one cup of", "cooked spaghetti", 221, 43, 8.0),
)
NUTRIENTS = ("vitamin C", "potassium", "iron", "calcium", "vitamin B6", "magnesium", "fiber")

BAKE_ITEMS = (  # item, oven temperature (F), minutes low, minutes high
    ("chicken breasts", 400, 22, 26), ("salmon fillets", 400, 12, 15),
    ("sweet potatoes", 425, 45, 50), ("meatloaf", 350, 55, 60),
    ("chocolate chip cookies", 375, 9, 11), ("banana bread", 350, 55, 65),
    ("pork chops", 400, 18, 22), ("a whole chicken", 425, 70, 90), ("lasagna", 375, 45, 50),
    ("brownies", 350, 25, 30), ("russet potatoes", 400, 50, 60), ("bacon", 400, 15, 20),
    ("acorn squash", 400, 45, 55), ("cornbread", 400, 20, 25), ("chicken thighs", 425, 35, 40),
    ("cod fillets", 400, 10, 12), ("stuffed peppers", 375, 25, 30), ("meatballs", 400, 18, 22),
)
DONENESS = ("the internal temperature reaches 165 degrees", "the edges turn golden brown",
            "a toothpick inserted in the center comes out clean", "it flakes easily with a fork",
            "the top is set and lightly browned")

DURATIONS = (  # process, unit, low, high
    ("get a passport", "weeks", 6, 8), ("renew a driver's license", "days", 7, 10),
    ("become a registered nurse", "years", 2, 4), ("heal a broken wrist", "weeks", 6, 8),
    ("recover from knee replacement surgery", "weeks", 10, 12),
    ("get a real estate license", "months", 3, 6), ("grow tomatoes from seed", "days", 60, 85),
    ("become a commercial pilot", "months", 18, 24), ("get a bachelor's degree", "years", 4, 5),
    ("close on a house", "days", 30, 45), ("recover from wisdom teeth removal", "days", 7, 10),
    ("get a liquor license", "months", 2, 6), ("become a certified electrician", "years", 4, 5),
    ("cure concrete", "days", 25, 30), ("learn basic conversational Spanish", "months", 6, 9),
    ("receive a tax refund", "weeks", 2, 3), ("get a building permit", "weeks", 4, 8),
)
COSTS = (  # service, typical cost
    ("replace a roof", 9500), ("install a water heater", 1400), ("paint a bedroom", 650),
    ("replace a windshield", 320), ("get braces", 5500), ("install hardwood floors", 5200),
    ("repair a furnace", 350), ("remodel a bathroom", 11000), ("pump a septic tank", 400),
    ("replace a garage door", 1200), ("install central air conditioning", 5600),
    ("remove a large tree", 900), ("build a wooden deck", 8000), ("replace a car battery", 180),
    ("install a fence", 3800), ("get a dental implant", 4200), ("replace kitchen cabinets", 7600),
    ("install solar panels", 16000), ("refinish a bathtub", 480), ("reupholster a sofa", 1100),
)
COST_FACTORS = ("the size of the project", "local labor rates", "the materials chosen",
                "the age of the home", "permit fees", "the complexity of the job",
                "the time of year", "the brand of the equipment")

ANIMALS = (  # plural, wild lifespan low, high, captivity max, weight low, high (pounds)
    ("red foxes", 2, 5, 14, 8, 15), ("bald eagles", 20, 30, 50, 8, 14),
    ("gray wolves", 6, 8, 17, 60, 130), ("African elephants", 60, 70, 80, 5000, 14000),
    ("house cats", 12, 18, 25, 8, 11), ("bottlenose dolphins", 40, 50, 60, 330, 1400),
    ("black bears", 18, 23, 39, 200, 600), ("box turtles", 25, 35, 100, 1, 2),
    ("red kangaroos", 12, 18, 23, 40, 200), ("great horned owls", 10, 13, 38, 2, 4),
    ("white-tailed deer", 4, 6, 20, 100, 300), ("giant pandas", 15, 20, 30, 150, 300),
    ("mallard ducks", 5, 10, 20, 2, 3), ("harbor seals", 25, 30, 35, 180, 290),
    ("bobcats", 10, 12, 32, 15, 35), ("raccoons", 2, 3, 20, 8, 20),
    ("koalas", 13, 18, 20, 9, 30), ("emperor penguins", 15, 20, 50, 50, 100),
)

LAB_TESTS = (  # test, low, high, unit
    ("fasting blood sugar", 70, 99, "milligrams per deciliter"),
    ("resting heart rate", 60, 100, "beats per minute"),
    ("hemoglobin level for adult women", 12.0, 15.5, "grams per deciliter"),
    ("TSH level", 0.4, 4.0, "milliunits per liter"),
    ("blood oxygen level", 95, 100, "percent"),
    ("platelet count", 150000, 450000, "platelets per microliter"),
    ("vitamin D level", 20, 50, "nanograms per milliliter"),
    ("potassium level", 3.5, 5.0, "millimoles per liter"),
    ("creatinine level for adult men", 0.7, 1.3, "milligrams per deciliter"),
    ("white blood cell count", 4500, 11000, "cells per microliter"),
    ("sodium level", 135, 145, "millimoles per liter"),
    ("respiratory rate for adults", 12, 20, "breaths per minute"),
)

STORE_WORDS_A = ("Fresh", "Value", "Home", "Quick", "Family", "Green", "Metro", "Sun", "Park",
                 "North", "Harvest", "Corner")
STORE_WORDS_B = ("Way Grocery", "Mart", "Plus Pharmacy", "Base Hardware", "Foods", "Depot",
                 "Market", "Stop Pharmacy", "Outfitters", "Pet Supply")
ORG_WORDS_A = ("Blue", "Summit", "Northstar", "Cedar", "Iron", "Bright", "Keystone", "Pioneer",
               "Harbor", "Granite", "Evergreen", "Silverline", "Redwood", "Atlas", "Beacon",
               "Meridian", "Lakeshore", "Crescent", "Prairie", "Copperleaf", "Tidewater")
ORG_WORDS_B = ("Analytics", "Logistics", "Foods", "Pharmaceuticals", "Energy", "Robotics",
               "Health", "Motors", "Media", "Capital", "Software", "Outdoor", "Biotech",
               "Airlines", "Brewing", "Financial", "Networks", "Materials", "Insurance")
SERVICE_ORG_PATTERNS = ("{a} Community Bank", "{a} Mutual Insurance", "{town} Power and Light",
                        "{a} Wireless", "{a} Federal Credit Union", "{town} Water Authority",
                        "{a} Health Plan", "{a} Auto Insurance")
PRODUCT_WORDS = ("outdoor gear", "frozen meals", "solar inverters", "pet food",
                 "medical devices", "kitchen appliances", "craft beer", "running shoes",
                 "accounting software", "electric bikes", "organic snacks", "home security cameras")

PROFESSIONS = (  # profession, work type, verb phrase
    ("novelist", "novel", "wrote"), ("singer-songwriter", "album", "released"),
    ("film director", "film", "directed"), ("playwright", "play", "wrote"),
    ("photographer", "photo book", "published"), ("chef", "cookbook", "published"),
    ("architect", "museum building", "designed"), ("poet", "poetry collection", "published"),
    ("journalist", "nonfiction book", "wrote"), ("composer", "symphony", "composed"),
)
TITLE_WORDS_A = ("Quiet", "Northern", "Salt", "Paper", "Hollow", "Silver", "Burning", "Last",
                 "Winter", "Open", "Distant", "Broken", "Golden", "Iron", "Wild", "Small")
TITLE_WORDS_B = ("Harbor", "Lights", "Orchard", "River", "Country", "Houses", "Summer",
                 "Kingdom", "Roads", "Fields", "Water", "Season", "Bridges", "Hours", "Rooms")
AWARDS = ("a regional arts prize", "two industry awards", "a national fellowship",
          "a critics' choice award", "a lifetime achievement award", "three festival awards")

# ----------------------------------------------------------------------------------------
# News stories.
# ----------------------------------------------------------------------------------------
CITY_PROJECTS = (
    ("a new public library branch", "library"), ("a downtown riverfront park", "park"),
    ("a youth sports complex", "complex"), ("a bus rapid transit line", "transit line"),
    ("a renovated senior center", "senior center"), ("a new fire station", "fire station"),
    ("road repairs on the east side", "road repairs"), ("an expanded homeless shelter", "shelter"),
    ("a water treatment upgrade", "water upgrade"), ("a community health clinic", "clinic"),
)
COMPANY_PRODUCTS = (
    "cloud software", "electric delivery vans", "frozen foods", "medical imaging devices",
    "smart thermostats", "industrial robots", "pet supplies", "streaming services",
    "home insurance", "solar panels", "athletic apparel", "generic drugs",
)
ANALYST_FIRMS = ("Morningstar", "Piper Sandler", "Wedbush", "Raymond James", "Baird",
                 "Jefferies", "Stifel", "KeyBanc", "Cowen", "Evercore")
UTILITIES_PATTERNS = ("{a} Electric", "{a} Energy", "{a} Power", "{a} Utilities")
TEAM_NICKNAMES = ("Hawks", "Rivermen", "Comets", "Bulldogs", "Pioneers", "Thunder", "Coyotes",
                  "Mustangs", "Storm", "Foxes", "Lumberjacks", "Blaze", "Otters", "Rockets",
                  "Wolves", "Titans", "Herons", "Miners", "Cardinals", "Express")
CHARGES = ("wire fraud", "embezzlement", "tax evasion", "bank fraud", "insurance fraud",
           "money laundering", "identity theft", "mail fraud")
FRAUD_VICTIMS = ("a local church", "a nonprofit food bank", "an elderly client",
                 "a small construction firm", "a school booster club", "a credit union",
                 "a family-owned hardware store")
STUDY_TOPICS = (  # exposure, outcome, measured thing
    ("regular walking", "memory decline", "memory test scores"),
    ("drinking two cups of coffee a day", "heart rhythm problems", "heart rhythm events"),
    ("sleeping fewer than six hours", "weight gain", "body mass index"),
    ("eating breakfast", "school performance", "math test scores"),
    ("owning a dog", "loneliness", "reported loneliness"),
    ("daily screen time over four hours", "sleep quality", "hours of deep sleep"),
    ("a Mediterranean diet", "type 2 diabetes", "blood sugar levels"),
    ("volunteering", "depression", "depression scores"),
    ("gardening", "stress", "stress hormone levels"),
    ("standing desks", "back pain", "reported back pain"),
)
JOURNALS = ("the Journal of the American Heart Association", "JAMA Network Open", "Pediatrics",
            "The BMJ", "Neurology", "the American Journal of Public Health", "Sleep",
            "Diabetes Care", "PLOS Medicine", "The Lancet Public Health")
BUILDINGS = ("a three-story apartment building", "a vacant warehouse", "a strip mall",
             "a two-story house", "a downtown restaurant", "a church", "a furniture store",
             "a row of townhomes")
FIRE_CAUSES = ("an electrical fault", "unattended cooking", "a space heater",
               "discarded smoking materials", "a lightning strike")
TRANSIT_LINES = ("Blue Line extension", "Green Line", "Red Line expansion", "Airport Connector",
                 "Purple Line", "Riverfront Streetcar", "Orange Line extension", "Silver Line")
HOSPITAL_WINGS = ("a pediatric cancer center", "a new emergency department",
                  "a behavioral health unit", "a maternity wing", "a cardiac care center",
                  "a trauma center", "a rehabilitation wing")
EXHIBIT_MEDIA = ("paintings", "photographs", "sculptures", "prints", "textile works",
                 "ceramics", "drawings")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")
