"""The subjects of the Russian Federation an athlete represents, by their ISO 3166-2:RU codes,
with their names in Russian and in English. Pure: the language is a parameter
(``tournaments.words.region_name`` passes the page's own).

ISO 3166-2:RU lists 83 subjects; the standard has no RU code for the others the Russian
Federation counts, so a profile cannot name them.

>>> region_name("RU-MOW", "ru"), region_name("RU-MOW", "en")
('Москва', 'Moscow')
>>> region_name("", "en")
''
>>> [name for _, name in region_choices("en")][:3]
['Republic of Adygea', 'Altai Krai', 'Altai Republic']
"""

from __future__ import annotations

#: Each subject's name, in Russian (as the Constitution's art. 65 lists it) and in English.
NAMES: dict[str, tuple[str, str]] = {
    "RU-AD": ("Республика Адыгея", "Republic of Adygea"),
    "RU-AL": ("Республика Алтай", "Altai Republic"),
    "RU-ALT": ("Алтайский край", "Altai Krai"),
    "RU-AMU": ("Амурская область", "Amur Oblast"),
    "RU-ARK": ("Архангельская область", "Arkhangelsk Oblast"),
    "RU-AST": ("Астраханская область", "Astrakhan Oblast"),
    "RU-BA": ("Республика Башкортостан", "Republic of Bashkortostan"),
    "RU-BEL": ("Белгородская область", "Belgorod Oblast"),
    "RU-BRY": ("Брянская область", "Bryansk Oblast"),
    "RU-BU": ("Республика Бурятия", "Republic of Buryatia"),
    "RU-CE": ("Чеченская Республика", "Chechen Republic"),
    "RU-CHE": ("Челябинская область", "Chelyabinsk Oblast"),
    "RU-CHU": ("Чукотский автономный округ", "Chukotka Autonomous Okrug"),
    "RU-CU": ("Чувашская Республика — Чувашия", "Chuvash Republic"),
    "RU-DA": ("Республика Дагестан", "Republic of Dagestan"),
    "RU-IN": ("Республика Ингушетия", "Republic of Ingushetia"),
    "RU-IRK": ("Иркутская область", "Irkutsk Oblast"),
    "RU-IVA": ("Ивановская область", "Ivanovo Oblast"),
    "RU-KAM": ("Камчатский край", "Kamchatka Krai"),
    "RU-KB": ("Кабардино-Балкарская Республика", "Kabardino-Balkarian Republic"),
    "RU-KC": ("Карачаево-Черкесская Республика", "Karachay-Cherkess Republic"),
    "RU-KDA": ("Краснодарский край", "Krasnodar Krai"),
    "RU-KEM": ("Кемеровская область — Кузбасс", "Kemerovo Oblast – Kuzbass"),
    "RU-KGD": ("Калининградская область", "Kaliningrad Oblast"),
    "RU-KGN": ("Курганская область", "Kurgan Oblast"),
    "RU-KHA": ("Хабаровский край", "Khabarovsk Krai"),
    "RU-KHM": ("Ханты-Мансийский автономный округ — Югра", "Khanty-Mansi Autonomous Okrug – Yugra"),
    "RU-KIR": ("Кировская область", "Kirov Oblast"),
    "RU-KK": ("Республика Хакасия", "Republic of Khakassia"),
    "RU-KL": ("Республика Калмыкия", "Republic of Kalmykia"),
    "RU-KLU": ("Калужская область", "Kaluga Oblast"),
    "RU-KO": ("Республика Коми", "Komi Republic"),
    "RU-KOS": ("Костромская область", "Kostroma Oblast"),
    "RU-KR": ("Республика Карелия", "Republic of Karelia"),
    "RU-KRS": ("Курская область", "Kursk Oblast"),
    "RU-KYA": ("Красноярский край", "Krasnoyarsk Krai"),
    "RU-LEN": ("Ленинградская область", "Leningrad Oblast"),
    "RU-LIP": ("Липецкая область", "Lipetsk Oblast"),
    "RU-MAG": ("Магаданская область", "Magadan Oblast"),
    "RU-ME": ("Республика Марий Эл", "Mari El Republic"),
    "RU-MO": ("Республика Мордовия", "Republic of Mordovia"),
    "RU-MOS": ("Московская область", "Moscow Oblast"),
    "RU-MOW": ("Москва", "Moscow"),
    "RU-MUR": ("Мурманская область", "Murmansk Oblast"),
    "RU-NEN": ("Ненецкий автономный округ", "Nenets Autonomous Okrug"),
    "RU-NGR": ("Новгородская область", "Novgorod Oblast"),
    "RU-NIZ": ("Нижегородская область", "Nizhny Novgorod Oblast"),
    "RU-NVS": ("Новосибирская область", "Novosibirsk Oblast"),
    "RU-OMS": ("Омская область", "Omsk Oblast"),
    "RU-ORE": ("Оренбургская область", "Orenburg Oblast"),
    "RU-ORL": ("Орловская область", "Oryol Oblast"),
    "RU-PER": ("Пермский край", "Perm Krai"),
    "RU-PNZ": ("Пензенская область", "Penza Oblast"),
    "RU-PRI": ("Приморский край", "Primorsky Krai"),
    "RU-PSK": ("Псковская область", "Pskov Oblast"),
    "RU-ROS": ("Ростовская область", "Rostov Oblast"),
    "RU-RYA": ("Рязанская область", "Ryazan Oblast"),
    "RU-SA": ("Республика Саха (Якутия)", "Sakha Republic (Yakutia)"),
    "RU-SAK": ("Сахалинская область", "Sakhalin Oblast"),
    "RU-SAM": ("Самарская область", "Samara Oblast"),
    "RU-SAR": ("Саратовская область", "Saratov Oblast"),
    "RU-SE": ("Республика Северная Осетия — Алания", "Republic of North Ossetia – Alania"),
    "RU-SMO": ("Смоленская область", "Smolensk Oblast"),
    "RU-SPE": ("Санкт-Петербург", "Saint Petersburg"),
    "RU-STA": ("Ставропольский край", "Stavropol Krai"),
    "RU-SVE": ("Свердловская область", "Sverdlovsk Oblast"),
    "RU-TA": ("Республика Татарстан", "Republic of Tatarstan"),
    "RU-TAM": ("Тамбовская область", "Tambov Oblast"),
    "RU-TOM": ("Томская область", "Tomsk Oblast"),
    "RU-TUL": ("Тульская область", "Tula Oblast"),
    "RU-TVE": ("Тверская область", "Tver Oblast"),
    "RU-TY": ("Республика Тыва", "Tuva Republic"),
    "RU-TYU": ("Тюменская область", "Tyumen Oblast"),
    "RU-UD": ("Удмуртская Республика", "Udmurt Republic"),
    "RU-ULY": ("Ульяновская область", "Ulyanovsk Oblast"),
    "RU-VGG": ("Волгоградская область", "Volgograd Oblast"),
    "RU-VLA": ("Владимирская область", "Vladimir Oblast"),
    "RU-VLG": ("Вологодская область", "Vologda Oblast"),
    "RU-VOR": ("Воронежская область", "Voronezh Oblast"),
    "RU-YAN": ("Ямало-Ненецкий автономный округ", "Yamalo-Nenets Autonomous Okrug"),
    "RU-YAR": ("Ярославская область", "Yaroslavl Oblast"),
    "RU-YEV": ("Еврейская автономная область", "Jewish Autonomous Oblast"),
    "RU-ZAB": ("Забайкальский край", "Zabaykalsky Krai"),
}  # fmt: skip

#: Every ISO 3166-2:RU code, as "RU-MOW".
REGION_CODES: frozenset[str] = frozenset(NAMES)
#: The longest code ("RU-MOW").
REGION_CODE_LENGTH = 6

#: The words a name may start with that say what kind of subject it is: a list sorts by the
#: word after them ("Republic of Adygea" beside "Altai Krai"), as an index of names does.
_KINDS = ("Республика ", "Republic of ")


def is_region(code: str) -> bool:
    """Whether ``code`` is an ISO 3166-2:RU code ("": no region is not one)."""
    return code in REGION_CODES


def _russian(language: str) -> bool:
    return language.lower().startswith("ru")


def region_name(code: str, language: str) -> str:
    """The subject's name in ``language`` (Russian for "ru", "ru-RU"…; English otherwise);
    "" for no region, the code itself for a code that is none."""
    names = NAMES.get(code)
    if names is None:
        return code
    return names[0] if _russian(language) else names[1]


def sort_key(name: str) -> str:
    """A name as a list sorts it: without the kind of subject it starts with, case and ё aside."""
    for kind in _KINDS:
        if name.startswith(kind):
            name = name[len(kind) :]
    return name.casefold().replace("ё", "е")


def region_choices(language: str) -> list[tuple[str, str]]:
    """Every subject as (code, name in ``language``), sorted by name."""
    named = [(code, region_name(code, language)) for code in NAMES]
    return sorted(named, key=lambda item: sort_key(item[1]))
