/**
 * Closed word classes of English used by the local manager's lexical checks.
 * All entries are lower-case with straight apostrophes.
 */

export const DETERMINERS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'his', 'her', 'their', 'its',
  'some', 'any', 'each', 'every', 'no', 'another', 'all', 'both', 'either', 'neither', 'much', 'many',
  'few', 'several', 'such', 'whose', 'which', 'what',
]);

export const PRONOUNS: ReadonlySet<string> = new Set([
  'i', 'me', 'we', 'us', 'you', 'he', 'him', 'she', 'they', 'them', 'it', 'mine', 'ours', 'yours', 'theirs',
  'hers', 'myself', 'ourselves', 'yourself', 'yourselves', 'himself', 'herself', 'itself', 'themselves',
  'something', 'anything', 'everything', 'nothing', 'someone', 'anyone', 'everyone', 'nobody', 'somebody',
  'everybody', 'one', 'there', 'here', "i'm", "i've", "i'd", "i'll", "we're", "we've", "we'd", "we'll",
  "you're", "you've", "you'd", "you'll", "he's", "he'd", "he'll", "she's", "she'd", "she'll", "they're",
  "they've", "they'd", "they'll", "it's", "it'll", "that's", "there's", "let's", 'lets',
]);

/** Pronouns that make a statement first-person. */
export const FIRST_PERSON: ReadonlySet<string> = new Set([
  'i', 'me', 'my', 'mine', 'myself', 'we', 'us', 'our', 'ours', 'ourselves', "i'm", "i've", "i'd", "i'll",
  "we're", "we've", "we'd", "we'll", "let's",
]);

export const PREPOSITIONS: ReadonlySet<string> = new Set([
  'in', 'on', 'at', 'by', 'for', 'with', 'about', 'from', 'to', 'of', 'into', 'onto', 'over', 'under',
  'between', 'through', 'during', 'before', 'after', 'since', 'until', 'till', 'within', 'without',
  'against', 'among', 'per', 'via', 'than', 'towards', 'toward', 'across', 'around', 'behind', 'beyond',
  'near', 'off', 'out', 'up', 'down', 'upon', 'above', 'below', 'along', 'except', 'instead', 'like',
]);

export const CONJUNCTIONS: ReadonlySet<string> = new Set([
  'and', 'or', 'but', 'so', 'because', 'although', 'though', 'while', 'whereas', 'if', 'unless', 'nor',
  'yet', 'whether', 'as', 'since', 'then', 'when', 'whenever', 'where', 'once', 'plus', '&',
]);

export const COPULAS: ReadonlySet<string> = new Set([
  'is', 'are', 'was', 'were', 'am', 'be', 'been', 'being', "isn't", "aren't", "wasn't", "weren't",
  "it's", "that's", "i'm", "we're", "you're", "they're", "he's", "she's", "there's", "what's", "here's",
  'becomes', 'became', 'remains', 'stays',
]);

export const MODALS: ReadonlySet<string> = new Set([
  'must', 'should', 'can', 'could', 'may', 'might', 'will', 'would', 'shall', "can't", 'cannot', "won't",
  "wouldn't", "shouldn't", "couldn't", "mustn't", "mightn't", "shan't", "i'll", "we'll", "i'd", "we'd",
]);

export const AUXILIARIES: ReadonlySet<string> = new Set([
  'do', 'does', 'did', 'have', 'has', 'had', "don't", "doesn't", "didn't", "haven't", "hasn't", "hadn't",
  "i've", "we've", 'gonna', 'wanna', 'gotta',
]);

export const NEGATIONS: ReadonlySet<string> = new Set([
  'not', 'no', 'never', "n't", 'cannot', "can't", "don't", "doesn't", "didn't", "won't", "isn't", "aren't",
  "wasn't", "weren't", "shouldn't", "mustn't", "wouldn't", "couldn't", "haven't", "hasn't", 'nor', 'none',
]);

export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  'what', 'why', 'how', 'when', 'where', 'who', 'whom', 'which', 'whose', "what's", "how's", "where's",
  "who's", "when's", "why's",
]);

/** Words that open a yes/no question ("can you …", "is it …"). */
export const QUESTION_OPENERS: ReadonlySet<string> = new Set([
  'can', 'could', 'would', 'will', 'should', 'shall', 'may', 'do', 'does', 'did', 'is', 'are', 'was',
  'were', 'have', 'has', 'any', "isn't", "aren't", "don't", "doesn't", "can't", "won't",
]);

/** Greetings, acknowledgements and reactions: a sentence made only of these says nothing to remember. */
export const SMALL_TALK_WORDS: ReadonlySet<string> = new Set([
  'hi', 'hello', 'hey', 'hiya', 'yo', 'howdy', 'greetings', 'morning', 'evening', 'afternoon', 'night',
  'good', 'great', 'thanks', 'thank', 'thx', 'ty', 'cheers', 'ok', 'okay', 'k', 'alright', 'sure', 'cool',
  'awesome', 'nice', 'lol', 'haha', 'hahaha', 'lmao', 'wow', 'oh', 'ah', 'aw', 'aww', 'um', 'uh', 'hmm',
  'yeah', 'yep', 'yes', 'yup', 'no', 'nope', 'nah', 'well', 'so', 'anyway', 'bye', 'goodbye', 'later',
  'see', 'soon', 'take', 'care', 'welcome', 'please', 'sorry', 'glad', 'happy', 'amazing', 'wonderful',
  'fantastic', 'perfect', 'sounds', 'sound', 'fun', 'love', 'doing', 'going', 'how', 'are', 'you', 'is',
  'it', 'that', 'this', 'what', 'up', 'much', 'appreciate', 'appreciated', 'really', 'very', 'so', 'too',
  'indeed', 'totally', 'absolutely', 'definitely', 'exactly', 'right', 'true', 'agreed', 'agree', 'same',
  'me', 'i', "i'm", 'am', 'for', 'to', 'hear', 'meet', 'nice', 'pleasure', 'the', 'a', 'and', 'all',
  'day', 'have', 'your', 'a', 'lovely', 'again', 'just', 'checking', 'in', 'chat', 'talk', 'catch', 'got',
  'it', 'understood', 'noted', 'makes', 'sense', 'interesting', 'cute', 'sweet', 'beautiful', 'incredible',
  'congrats', 'congratulations', 'proud', 'of', 'we', 'be', 'there', "that's", "it's", 'was', 'lot',
  'thing', 'things', 'yours', 'ya', 'u', 'hope', 'well', 'doing', 'been', 'keep', 'touch', 'wish', 'luck',
  'dear', 'friend', 'buddy', 'guys', 'everyone', 'thankful', 'grateful', 'excited', 'exciting', 'wish',
  'gosh', 'omg', 'yay', 'woohoo', 'hooray', 'my', 'god', 'today', 'tonight', 'tomorrow', 'weekend', 'help',
  'can', 'assist', "let's", 'do', 'go', 'ahead', 'fine', 'works', 'noted', 'again', 'by', 'way', "you're",
  'anytime', 'np', 'problem', 'worries', 'course', 'gotcha', 'understand', 'see', 'ugh', 'argh', 'meh', 'phew', 'whew',
  'ooh', 'hm', 'hmmm', 'ouch', 'yikes', 'eh', 'huh',
]);

/** Nouns too vague to name what a fact is about. */
export const GENERIC_NOUNS: ReadonlySet<string> = new Set([
  'thing', 'things', 'stuff', 'lot', 'lots', 'way', 'ways', 'time', 'times', 'bit', 'kind', 'sort', 'type',
  'part', 'one', 'ones', 'something', 'anything', 'everything', 'nothing', 'people', 'guys', 'idea', 'fact',
  'point', 'case', 'matter', 'question', 'answer', 'help', 'moment', 'today', 'tomorrow', 'yesterday',
  'day', 'week', 'month', 'year', 'number', 'numbers', 'amount', 'bunch', 'deal', 'place', 'end', 'start',
  'sure', 'yes', 'no', 'please', 'thanks', 'version', 'lol', 'haha', 'sense', 'reason',
]);

/** Frequent verbs and adverbs that carry little topic information. */
const LIGHT_WORDS = [
  'get', 'got', 'gets', 'getting', 'make', 'makes', 'made', 'making', 'go', 'goes', 'went', 'gone', 'going',
  'really', 'very', 'just', 'also', 'too', 'quite', 'pretty', 'even', 'still', 'already', 'actually', 'maybe',
  'perhaps', 'probably', 'definitely', 'certainly', 'know', 'think', 'thought', 'guess', 'say', 'said',
  'tell', 'told', 'let', 'lets', 'want', 'wants', 'need', 'needs', 'like', 'likes', 'would', 'could',
  'should', 'can', 'will', 'shall', 'might', 'must', 'do', 'does', 'did', 'done', 'have', 'has', 'had',
  'be', 'been', 'being', 'is', 'are', 'was', 'were', 'am', 'now', 'then', 'than', 'more', 'most', 'less',
  'some', 'such', 'only', 'own', 'same', 'other', 'others', 'again', 'ever', 'here', 'there', 'where',
  'when', 'why', 'how', 'what', 'which', 'who', 'whom', 'yes', 'no', 'not', 'oh', 'ok', 'okay', 'well',
  'sure', 'yeah', 'lol', 'haha', 'wow', 'thanks', 'thank', 'please', 'hi', 'hello', 'hey', 'kinda',
  'sorta', 'gonna', 'wanna', 'gotta', 'lot', 'lots', 'much', 'many', 'any', 'each', 'every', 'all', 'both',
  'thing', 'things', 'stuff', 'way', 'something', 'anything', 'everything', 'nothing', 'someone', 'anyone',
  'everyone', 'into', 'onto', 'about', 'able', 'etc', 'e.g', 'i.e', 'via', 'per', 'using', 'use', 'used',
];

/** Words ignored when looking for the content of a sentence. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  ...DETERMINERS,
  ...PRONOUNS,
  ...PREPOSITIONS,
  ...CONJUNCTIONS,
  ...COPULAS,
  ...MODALS,
  ...AUXILIARIES,
  ...NEGATIONS,
  ...QUESTION_WORDS,
  ...LIGHT_WORDS,
]);

export const MONTHS: ReadonlySet<string> = new Set([
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october',
  'november', 'december', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

export const WEEKDAYS: ReadonlySet<string> = new Set([
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mon', 'tue', 'tues', 'wed',
  'thu', 'thur', 'thurs', 'fri', 'sat', 'sun', 'mondays', 'tuesdays', 'wednesdays', 'thursdays', 'fridays',
  'saturdays', 'sundays', 'weekend', 'weekends', 'weekdays',
]);

/** Words that are a date on their own. */
export const DATE_WORDS: ReadonlySet<string> = new Set([
  'today', 'tonight', 'yesterday', 'tomorrow', 'ago', 'noon', 'midnight', 'christmas', 'easter', 'fortnight',
  'weekend', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'mondays',
  'tuesdays', 'wednesdays', 'thursdays', 'fridays', 'saturdays', 'sundays',
]);

/** Words that make a date after "next", "last", "this" ("next week", "last summer"). */
export const DATE_UNITS: ReadonlySet<string> = new Set([
  'week', 'weekend', 'month', 'year', 'morning', 'evening', 'afternoon', 'night', 'summer', 'winter', 'spring',
  'fall', 'autumn', 'semester', 'quarter', 'time', ...WEEKDAYS, ...MONTHS,
]);

/** Words of a date expression that are relative to the time the message was sent. */
export const RELATIVE_DATE_WORDS: ReadonlySet<string> = new Set([
  'today', 'tonight', 'yesterday', 'tomorrow', 'ago', 'next', 'last', 'this', 'in', 'coming', 'past',
  'earlier', 'later', 'weekend',
]);


/** Small counts written as words, by the number they say ("two weeks", "a week"). */
export const COUNT_WORDS: Readonly<Record<string, number>> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/** Numbers written as words: a count, never what a fact is about. */
export const NUMBER_WORDS: ReadonlySet<string> = new Set([
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen',
  'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty', 'fifty', 'sixty',
  'seventy', 'eighty', 'ninety', 'hundred', 'hundreds', 'thousand', 'thousands', 'million', 'millions', 'billion', 'dozen',
  'dozens', 'half', 'couple', 'first', 'second', 'third', 'fourth', 'fifth', 'twice', 'once',
]);

/** Units of measure: "512 MB" is about what is measured, not about megabytes. */
export const UNIT_WORDS: ReadonlySet<string> = new Set([
  'kb', 'mb', 'gb', 'tb', 'pb', 'kib', 'mib', 'gib', 'tib', 'km', 'm', 'cm', 'mm', 'mi', 'miles', 'mile', 'kg', 'g', 'mg', 'lb', 'lbs',
  'ml', 'l', 'ms', 's', 'sec', 'secs', 'min', 'mins', 'h', 'hr', 'hrs', 'c', 'f', '°c', '°f', 'kcal', 'cal', 'percent', 'pct', 'bps',
  'kbps', 'mbps', 'gbps', 'hz', 'khz', 'mhz', 'ghz', 'rpm', 'rps', 'qps', 'usd', 'eur', 'gbp', 'chf', 'k', 'x',
]);

/** Nouns that talk about the talk ("a rule", "some news", "a question"): they name no thing of the task. */
export const META_NOUNS: ReadonlySet<string> = new Set([
  ...GENERIC_NOUNS, 'rule', 'rules', 'preference', 'preferences', 'question', 'questions', 'problem', 'problems', 'news', 'update',
  'updates', 'change', 'changes', 'note', 'notes', 'detail', 'details', 'info', 'information', 'topic', 'topics', 'side', 'request',
  'requests', 'thought', 'thoughts', 'check', 'correction', 'reminder', 'heads-up', 'say', 'look', 'chance', 'issue', 'stuff', 'mind',
  'picture', 'plans', 'plan', 'record', 'edge', 'deal', 'lot', 'tip', 'tips', 'ideas', 'suggestion', 'suggestions', 'option', 'options',
]);

/** Nouns of a role ("our accountant", "the contractor"): with a person's name, who does what is a fact. */
export const ROLE_NOUNS: ReadonlySet<string> = new Set([
  'manager', 'boss', 'lead', 'head', 'director', 'editor', 'supervisor', 'advisor', 'adviser', 'cto', 'ceo', 'cfo', 'coo', 'vp', 'owner',
  'colleague', 'teammate', 'engineer', 'developer', 'designer', 'analyst', 'lawyer', 'solicitor', 'counsel', 'accountant', 'bookkeeper',
  'contact', 'client', 'customer', 'vendor', 'supplier', 'rep', 'reviewer', 'approver', 'sponsor', 'admin', 'officer', 'founder', 'partner',
  'consultant', 'contractor', 'builder', 'plumber', 'electrician', 'doctor', 'gp', 'cardiologist', 'specialist', 'nurse', 'surgeon',
  'dentist', 'physio', 'therapist', 'coach', 'trainer', 'agent', 'landlord', 'tutor', 'teacher', 'professor', 'caterer', 'planner',
  'photographer', 'florist', 'officiant', 'dj', 'vet', 'pharmacist', 'carer', 'nanny', 'babysitter', 'barista', 'chef', 'architect',
  'inspector', 'broker', 'realtor', 'mover', 'movers', 'pharmacy', 'venue', 'school', 'bank', 'insurer',
]);
