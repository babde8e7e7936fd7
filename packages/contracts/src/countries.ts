/** A country of ISO 3166-1 with its alpha-2 code. */
export interface Country {
  code: string;
  name: string;
}

/** A state (or district / territory) of the United States with its USPS code. */
export interface UsState {
  code: string;
  name: string;
}

const countryTable = `AF Afghanistan|AX Åland Islands|AL Albania|DZ Algeria|AS American Samoa|AD Andorra|AO Angola|AI Anguilla|AQ Antarctica|AG Antigua and Barbuda|AR Argentina|AM Armenia|AW Aruba|AU Australia|AT Austria|AZ Azerbaijan|BS Bahamas|BH Bahrain|BD Bangladesh|BB Barbados|BY Belarus|BE Belgium|BZ Belize|BJ Benin|BM Bermuda|BT Bhutan|BO Bolivia|BQ Bonaire, Sint Eustatius and Saba|BA Bosnia and Herzegovina|BW Botswana|BV Bouvet Island|BR Brazil|IO British Indian Ocean Territory|BN Brunei Darussalam|BG Bulgaria|BF Burkina Faso|BI Burundi|CV Cabo Verde|KH Cambodia|CM Cameroon|CA Canada|KY Cayman Islands|CF Central African Republic|TD Chad|CL Chile|CN China|CX Christmas Island|CC Cocos (Keeling) Islands|CO Colombia|KM Comoros|CG Congo|CD Congo, Democratic Republic of the|CK Cook Islands|CR Costa Rica|CI Côte d'Ivoire|HR Croatia|CU Cuba|CW Curaçao|CY Cyprus|CZ Czechia|DK Denmark|DJ Djibouti|DM Dominica|DO Dominican Republic|EC Ecuador|EG Egypt|SV El Salvador|GQ Equatorial Guinea|ER Eritrea|EE Estonia|SZ Eswatini|ET Ethiopia|FK Falkland Islands (Malvinas)|FO Faroe Islands|FJ Fiji|FI Finland|FR France|GF French Guiana|PF French Polynesia|TF French Southern Territories|GA Gabon|GM Gambia|GE Georgia|DE Germany|GH Ghana|GI Gibraltar|GR Greece|GL Greenland|GD Grenada|GP Guadeloupe|GU Guam|GT Guatemala|GG Guernsey|GN Guinea|GW Guinea-Bissau|GY Guyana|HT Haiti|HM Heard Island and McDonald Islands|VA Holy See|HN Honduras|HK Hong Kong|HU Hungary|IS Iceland|IN India|ID Indonesia|IR Iran|IQ Iraq|IE Ireland|IM Isle of Man|IL Israel|IT Italy|JM Jamaica|JP Japan|JE Jersey|JO Jordan|KZ Kazakhstan|KE Kenya|KI Kiribati|KP Korea, Democratic People's Republic of|KR Korea, Republic of|KW Kuwait|KG Kyrgyzstan|LA Lao People's Democratic Republic|LV Latvia|LB Lebanon|LS Lesotho|LR Liberia|LY Libya|LI Liechtenstein|LT Lithuania|LU Luxembourg|MO Macao|MG Madagascar|MW Malawi|MY Malaysia|MV Maldives|ML Mali|MT Malta|MH Marshall Islands|MQ Martinique|MR Mauritania|MU Mauritius|YT Mayotte|MX Mexico|FM Micronesia|MD Moldova|MC Monaco|MN Mongolia|ME Montenegro|MS Montserrat|MA Morocco|MZ Mozambique|MM Myanmar|NA Namibia|NR Nauru|NP Nepal|NL Netherlands|NC New Caledonia|NZ New Zealand|NI Nicaragua|NE Niger|NG Nigeria|NU Niue|NF Norfolk Island|MK North Macedonia|MP Northern Mariana Islands|NO Norway|OM Oman|PK Pakistan|PW Palau|PS Palestine, State of|PA Panama|PG Papua New Guinea|PY Paraguay|PE Peru|PH Philippines|PN Pitcairn|PL Poland|PT Portugal|PR Puerto Rico|QA Qatar|RE Réunion|RO Romania|RU Russian Federation|RW Rwanda|BL Saint Barthélemy|SH Saint Helena, Ascension and Tristan da Cunha|KN Saint Kitts and Nevis|LC Saint Lucia|MF Saint Martin (French part)|PM Saint Pierre and Miquelon|VC Saint Vincent and the Grenadines|WS Samoa|SM San Marino|ST Sao Tome and Principe|SA Saudi Arabia|SN Senegal|RS Serbia|SC Seychelles|SL Sierra Leone|SG Singapore|SX Sint Maarten (Dutch part)|SK Slovakia|SI Slovenia|SB Solomon Islands|SO Somalia|ZA South Africa|GS South Georgia and the South Sandwich Islands|SS South Sudan|ES Spain|LK Sri Lanka|SD Sudan|SR Suriname|SJ Svalbard and Jan Mayen|SE Sweden|CH Switzerland|SY Syrian Arab Republic|TW Taiwan|TJ Tajikistan|TZ Tanzania|TH Thailand|TL Timor-Leste|TG Togo|TK Tokelau|TO Tonga|TT Trinidad and Tobago|TN Tunisia|TR Türkiye|TM Turkmenistan|TC Turks and Caicos Islands|TV Tuvalu|UG Uganda|UA Ukraine|AE United Arab Emirates|GB United Kingdom|US United States|UM United States Minor Outlying Islands|UY Uruguay|UZ Uzbekistan|VU Vanuatu|VE Venezuela|VN Viet Nam|VG Virgin Islands (British)|VI Virgin Islands (U.S.)|WF Wallis and Futuna|EH Western Sahara|YE Yemen|ZM Zambia|ZW Zimbabwe`;

const usStateTable = `AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware|DC District of Columbia|FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas|KY Kentucky|LA Louisiana|ME Maine|MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi|MO Missouri|MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York|NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|RI Rhode Island|SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|WA Washington|WV West Virginia|WI Wisconsin|WY Wyoming`;

function parseTable(table: string): { code: string; name: string }[] {
  return table.split('|').map((entry) => ({ code: entry.slice(0, 2), name: entry.slice(3) }));
}

/** ISO 3166-1 countries, alphabetical by English short name. */
export const countries: readonly Country[] = parseTable(countryTable);
/** The 50 states and the District of Columbia. */
export const usStates: readonly UsState[] = parseTable(usStateTable);
/** The country that has states to choose from. */
export const unitedStatesCode = 'US';

const countryCodes = new Set(countries.map((country) => country.code));
const usStateCodes = new Set(usStates.map((state) => state.code));

export function isCountryCode(code: string): boolean {
  return countryCodes.has(code);
}

export function isUsStateCode(code: string): boolean {
  return usStateCodes.has(code);
}

/** Where a workspace's data live. */
export const dataRegions = ['eu', 'us'] as const;
export type DataRegion = (typeof dataRegions)[number];

/**
 * Countries whose workspaces are proposed the US region: the Americas (North, Central, South and
 * the Caribbean, with their territories). Every other country is proposed the EU region.
 * See docs/decisions/workspaces-data-region.md.
 */
const usRegionCountries = new Set(
  'AG AI AR AS AW BB BL BM BO BQ BR BS BZ CA CL CO CR CU CW DM DO EC FK GD GF GL GP GS GT GU GY HN HT JM KN KY LC MF MP MQ MS MX NI PA PE PM PR PY SR SV SX TC TT UM US UY VC VE VG VI'.split(
    ' ',
  ),
);

/** The data region proposed for a company in this country (an admin may change it until data exist). */
export function proposedDataRegion(countryCode: string): DataRegion {
  return usRegionCountries.has(countryCode) ? 'us' : 'eu';
}
